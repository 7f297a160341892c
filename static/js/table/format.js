// Times and names as the table writes them.

import { formatSpan, gettext, interpolate } from "../i18n.js";

export function formatLeft(ms) {
  if (ms <= 0) return gettext("time's up");
  const s = Math.floor(ms / 1000);
  // An hour or more: its two largest units, as short as CLDR writes them ("2d 3h", "2 д.
  // и 3 ч."): the line beside the player's name has little room; less: a clock ("4:05").
  if (s >= 3600) return interpolate(gettext("%(time)s left"), { time: formatSpan(s - (s % 60), "narrow") }, true);
  const m = Math.floor(s / 60);
  return interpolate(gettext("%(clock)s left"), { clock: `${m}:${String(s % 60).padStart(2, "0")}` }, true);
}

// "1:05": minutes and seconds left (none below 0).
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function initials(name) {
  return (name || "?").trim().slice(0, 1).toUpperCase();
}
