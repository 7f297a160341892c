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
export const interpolate =
  window.interpolate || ((format, values, named) => (named ? namedFallback(format, values) : format));

// "mk", "sr-latn", "sr-cyrl", "pl", "en": the language the page was rendered in.
export const LANG = document.documentElement.lang || "en";

// Dates and times as the page's language writes them (BCP 47 tags ignore case: sr-latn).
export function formatTime(date) {
  return new Date(date).toLocaleTimeString(LANG, { hour: "2-digit", minute: "2-digit" });
}

export function formatDate(date) {
  return new Date(date).toLocaleDateString(LANG);
}

// A number of a unit of time in the page's language, from CLDR through Intl: "45 s",
// "45 сек.", "3 min", "3 мин." (short), "3 minutes" (long); never a number and a letter
// put together by hand.
export function formatUnit(amount, unit, display = "short") {
  return asCldrSaid(new Intl.NumberFormat(LANG, { style: "unit", unit, unitDisplay: display }).format(amount));
}

// The pseudo-locale (tests and developers only, docs/translations.md) marks CLDR's words
// as it marks the catalogue's, as remi_site.formats does on the server: its check then
// tells them from words put together by hand.
const PSEUDO_LANGUAGE = "en-xa";

function asCldrSaid(text) {
  return LANG === PSEUDO_LANGUAGE ? `\u27e6${text}\u27e7` : text;
}

const SPAN_UNITS = [
  ["day", 86400],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

// A span of seconds in its largest unit and the next one when that is not nought, as
// remi_site.formats.duration says it on the server: "2d 3h" (narrow, where space is
// short), "2 days 3 hr" (short), "2 days, 3 hours" (long).
export function formatSpan(seconds, display = "short") {
  let rest = Math.max(0, Math.round(seconds));
  const amounts = SPAN_UNITS.map(([unit, size]) => {
    const amount = Math.floor(rest / size);
    rest -= amount * size;
    return [unit, amount];
  });
  const first = Math.max(0, amounts.findIndex(([, amount]) => amount > 0));
  const parts = [formatUnit(amounts[first][1], amounts[first][0], display)];
  const next = amounts[first + 1];
  if (next && next[1]) parts.push(formatUnit(next[1], next[0], display));
  if (parts.length === 1) return parts[0];
  return new Intl.ListFormat(LANG, { style: display === "long" ? "long" : "narrow", type: "unit" }).format(parts);
}
