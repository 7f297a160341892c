// A game's pace as every page writes it: "30 s a turn + 2 min bank", "3 days a move".
// The units come from CLDR (formatUnit); the words around them from the catalogue.

import { formatUnit, gettext, interpolate, ngettext } from "./i18n.js";

// A time bank: whole minutes as minutes, anything else in seconds.
export function bankText(seconds) {
  return seconds % 60 === 0 ? formatUnit(seconds / 60, "minute") : formatUnit(seconds, "second");
}

// The time a player has for a turn (live) or a move (correspondence).
export function paceText(tc) {
  if (tc.kind === "live") return interpolate(gettext("%(time)s a turn"), { time: formatUnit(tc.seconds_per_turn, "second") }, true);
  return interpolate(ngettext("%(days)s day a move", "%(days)s days a move", tc.days_per_move), { days: tc.days_per_move }, true);
}

// The pace with a live game's time bank after it.
export function paceWithBank(tc) {
  const pace = paceText(tc);
  if (tc.kind !== "live" || !tc.time_bank_s) return pace;
  return `${pace} + ${interpolate(gettext("%(time)s bank"), { time: bankText(tc.time_bank_s) }, true)}`;
}
