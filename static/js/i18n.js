// The page's language for the scripts: Django's JavaScript catalog (/jsi18n/, loaded
// by base.html before any module) defines gettext, ngettext and interpolate on window.
// Calls stay literal, as gettext("..."), so that `makemessages -d djangojs` finds them.
// Without the catalog (a page that did not load it) the English text is shown.

function namedFallback(format, values) {
  return format.replace(/%\((\w+)\)s/g, (match, key) => String(values[key]));
}

export const gettext = window.gettext || ((text) => text);
export const ngettext = window.ngettext || ((singular, plural, count) => (count === 1 ? singular : plural));
export const pgettext = window.pgettext || ((context, text) => text);
const catalogueInterpolate =
  window.interpolate || ((format, values, named) => (named ? namedFallback(format, values) : format));

// The catalogue's interpolate, with each number among the values written as the page's
// language writes numbers (formatNumber): a count, score or total put into a sentence
// reads "1.234" on a Macedonian page, not "1234".
export function interpolate(format, values, named) {
  const said = (value) => (typeof value === "number" ? formatNumber(value) : value);
  const shown = Array.isArray(values)
    ? values.map(said)
    : Object.fromEntries(Object.entries(values).map(([key, value]) => [key, said(value)]));
  return catalogueInterpolate(format, shown, named);
}

// "mk", "sr-latn", "sr-cyrl", "pl", "en": the language the page was rendered in.
export const LANG = document.documentElement.lang || "en";

// CLDR's words for the page's language, from the server's Babel (remi_site/script_cldr.py,
// loaded with the catalogue): a browser's own Intl lacks some of the site's languages
// (Chromium has no Macedonian and would write "8:40 PM", "2d 23h" and "12,345" on a
// Macedonian page). Intl stands in only on a page without the catalogue.
const CLDR = window.remiCldr || null;

// The pseudo-locale (tests and developers only, docs/translations.md) marks CLDR's words
// as it marks the catalogue's, as remi_site.formats does on the server: its check then
// tells them from words put together by hand.
const PSEUDO_LANGUAGE = "en-xa";

function asCldrSaid(text) {
  return LANG === PSEUDO_LANGUAGE ? `\u27e6${text}\u27e7` : text;
}

// The plural category of a whole count, by its letter ("o" one, "f" few, "m" many, "x"
// other; remi_site/script_cldr.py gives 0 to 199; past that, the site's languages' rules
// read only the last two digits).
function pluralOf(count) {
  const n = Math.abs(Math.trunc(count));
  return CLDR.plural[n < 200 ? n : 100 + (n % 100)];
}

// A number as the page's language writes it, as remi_site.formats.number does on the
// server: "1.234" and "-1.234" (Macedonian, Serbian), "1234" but "12 345" (Polish groups
// only from five digits on), "1,234" (English); at most three decimals ("1,5").
// ``signed``: a positive number carries the language's plus sign ("+12", a score).
// Every number a person reads goes through here (interpolate and dom.js's el do it for
// the numbers given to them); never String(n) or a template literal.
// A rating is written in digits alone in every language, as rating lists write it
// ("1500", never "1.500"): formatRating, or grouped: false.
export function formatNumber(value, { signed = false, grouped = true } = {}) {
  if (!CLDR) {
    return new Intl.NumberFormat(LANG, { maximumFractionDigits: 3, signDisplay: signed ? "exceptZero" : "auto", useGrouping: grouped }).format(value);
  }
  const symbols = CLDR.number;
  const [whole, fraction = ""] = Math.abs(value).toFixed(symbols.fraction).split(".");
  const decimals = fraction.replace(/0+$/, "");
  const [primary, secondary] = symbols.grouping;
  let digits = whole;
  if (grouped && whole.length >= primary + symbols.min_grouping) {
    const groups = [whole.slice(-primary)];
    let rest = whole.slice(0, -primary);
    for (; rest.length > secondary; rest = rest.slice(0, -secondary)) groups.unshift(rest.slice(-secondary));
    digits = [rest, ...groups].join(symbols.group);
  }
  const text = decimals ? digits + symbols.decimal + decimals : digits;
  if (!/[1-9]/.test(text)) return text;
  if (value < 0) return symbols.minus + text;
  return signed ? symbols.plus + text : text;
}

export function formatRating(value) {
  return formatNumber(value, { grouped: false });
}

function pad(value, width) {
  return String(value).padStart(width, "0");
}

// A date or time by a CLDR pattern ("HH:mm", "d MMM y 'г'."), in the browser's zone.
function byPattern(pattern, when) {
  return pattern.replace(/'([^']*)'|d+|M+|y+|H+|h+|m+|a+/g, (token, quoted) => {
    if (quoted !== undefined) return quoted || "'";
    const width = token.length;
    switch (token[0]) {
      case "d": return pad(when.getDate(), width);
      case "M": return width >= 3 ? CLDR.months[when.getMonth()] : pad(when.getMonth() + 1, width);
      case "y": return width === 2 ? pad(when.getFullYear() % 100, 2) : String(when.getFullYear());
      case "H": return pad(when.getHours(), width);
      case "h": return pad(when.getHours() % 12 || 12, width);
      case "m": return pad(when.getMinutes(), width);
      default: return CLDR.am_pm[when.getHours() < 12 ? 0 : 1];
    }
  });
}

// "20:40", "8:40 PM": a time of day as the page's language writes it.
export function formatTime(date) {
  const when = new Date(date);
  if (!CLDR) return when.toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" });
  return asCldrSaid(byPattern(CLDR.time, when));
}

// "6 дек. 2026 г.", "6 gru 2026", "Dec 6, 2026".
export function formatDate(date) {
  const when = new Date(date);
  if (!CLDR) return when.toLocaleDateString(LANG);
  return asCldrSaid(byPattern(CLDR.date, when));
}

// A number of a unit of time in the page's language: "45 sec", "45 сек.", "3 мин."
// (short), "3 minutes" (long), "3m" (narrow); never a number and a letter put together by
// hand.
export function formatUnit(amount, unit, display = "short") {
  if (!CLDR) return new Intl.NumberFormat(LANG, { style: "unit", unit, unitDisplay: display }).format(amount);
  const patterns = CLDR.units[unit][display];
  const pattern = patterns[pluralOf(amount)] || patterns.x;
  return asCldrSaid(pattern.replace("{0}", formatNumber(amount)));
}

// Items in a list as the language joins them: "Ana, Bo и Cvetko" ("long"), or units of
// time ("unit", "unit-short", "unit-narrow").
export function formatList(items, style = "long") {
  const joiners = CLDR && CLDR.lists[style];
  if (!joiners) return items.join(", ");
  const joiner = (key) => (/\p{L}/u.test(joiners[key]) ? asCldrSaid(joiners[key]) : joiners[key]);
  if (items.length <= 1) return items.join("");
  if (items.length === 2) return items[0] + joiner("two") + items[1];
  const last = items.length - 1;
  const middle = items.slice(1, last).join(joiner("middle"));
  return items[0] + joiner("start") + middle + joiner("end") + items[last];
}

const SPAN_UNITS = [
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

const SPAN_LISTS = { long: "unit", short: "unit-short", narrow: "unit-narrow" };

// A span of seconds in its largest unit and the next one when that is not nought, as
// remi_site.formats.duration says it on the server: "2d 3h" (narrow, where space is
// short), "2 days, 3 hr" (short), "2 days, 3 hours" (long).
export function formatSpan(seconds, display = "short") {
  let rest = Math.max(0, Math.round(seconds));
  const amounts = SPAN_UNITS.map(([unit, size]) => {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    return [unit, amount];
  });
  // Nothing left is said in the smallest unit ("0 sec"), as the server says "0 minutes".
  const found = amounts.findIndex(([, amount]) => amount > 0);
  const first = found < 0 ? amounts.length - 1 : found;
  const parts = [formatUnit(amounts[first][1], amounts[first][0], display)];
  const next = amounts[first + 1];
  if (next && next[1]) parts.push(formatUnit(next[1], next[0], display));
  return formatList(parts, SPAN_LISTS[display]);
}
