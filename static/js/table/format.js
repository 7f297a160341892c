// Times and names as the table writes them.

import { gettext, interpolate } from "../i18n.js";

export function formatLeft(ms) {
  if (ms <= 0) return gettext("time's up");
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return interpolate(gettext("%(days)sd %(hours)sh left"), { days: d, hours: h }, true);
  if (h > 0) return interpolate(gettext("%(hours)sh %(minutes)sm left"), { hours: h, minutes: m }, true);
  return interpolate(gettext("%(clock)s left"), { clock: `${m}:${String(s % 60).padStart(2, "0")}` }, true);
}

// "1:05": minutes and seconds left (none below 0).
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function bankText(seconds) {
  return seconds % 60 === 0
    ? interpolate(gettext("%(minutes)s min"), { minutes: seconds / 60 }, true)
    : interpolate(gettext("%(seconds)s s"), { seconds }, true);
}

export function initials(name) {
  return (name || "?").trim().slice(0, 1).toUpperCase();
}
