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
