// A visitor's pages in their own time zone: the browser's zone, kept in a cookie that
// the server reads from the next page on (remi_site.time_zones). A signed-in person's
// pages follow the zone of their settings instead.
const COOKIE = "remi_tz";
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone && !document.cookie.split("; ").includes(`${COOKIE}=${encodeURIComponent(zone)}`)) {
  document.cookie = `${COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
}
