// Times and names as the table writes them.

export function formatLeft(ms) {
  if (ms <= 0) return "time's up";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `${d}d ${h}h left`;
  if (h > 0) return `${h}h ${m}m left`;
  return `${m}:${String(s % 60).padStart(2, "0")} left`;
}

// "1:05": minutes and seconds left (none below 0).
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function bankText(seconds) {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

export function initials(name) {
  return (name || "?").trim().slice(0, 1).toUpperCase();
}
