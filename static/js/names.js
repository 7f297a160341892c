// The name a person is shown by: their display name, with their username after it where
// someone else in the same company (a table's seats, a chat's writers) goes by a name
// that reads the same. Display names need not be unique (docs/accounts.md), and two
// people called "Marko" at one table must still be told apart.

import { gettext, interpolate } from "./i18n.js";
import { FOLDS, READS_AS } from "./latin-reading.js";

const LATIN = new Map(Object.entries(READS_AS).flatMap(([letter, alike]) => Array.from(alike, (character) => [character, letter])));
const FOLDED = new Map(Object.entries(FOLDS));

// ``text`` with each character (a code point) that ``table`` holds replaced.
function each(text, table) {
  return Array.from(text, (character) => table.get(character) ?? character).join("");
}

// How a name reads, as the server reads it (accounts/display_names.py ``reading``): two
// names read the same when they differ only in case, width, spacing or look-alike
// letters of another alphabet ("Марко", all Cyrillic, and "Mapko").
export function reading(name) {
  const latin = each(name.normalize("NFKC"), LATIN);
  return each(latin.toLowerCase(), FOLDED).replace(/\s+/gu, " ").trim();
}

function displayed(user) {
  return user.display_name || user.username;
}

function withUsername(user) {
  return interpolate(gettext("%(name)s (@%(username)s)"), { name: displayed(user), username: user.username }, true);
}

// ``user`` and each of ``company``: an API user ({username, display_name}).
export function shownName(user, company) {
  const read = reading(displayed(user));
  const twin = company.some((other) => other && other.username !== user.username && reading(displayed(other)) === read);
  return twin ? withUsername(user) : displayed(user);
}

// ``shownName`` in two parts, for a box too narrow for the whole: the display name and,
// where ``shownName`` adds it, the username (null otherwise). The box cuts the display
// name short but keeps the username, or two "Marko"s would look alike again.
export function shownNameParts(user, company) {
  const name = displayed(user);
  return { name, username: shownName(user, company) === name ? null : user.username };
}

// A person named with nobody beside them (a challenge's sender, the writer of a line
// being reported): the username too, unless the display name reads as it, so that
// nobody passes for a friend by name and a report says whom it is about.
export function namedAlone(user) {
  if (!user.username || reading(displayed(user)) === reading(user.username)) return displayed(user);
  return withUsername(user);
}
