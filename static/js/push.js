// The notification settings page: Web Push in this browser (a service worker,
// static/sw.js, shows what the site pushes) and the time zone's default (the
// browser's, saved when none was chosen yet).
import { api } from "./api.js";
import { $ } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

const SUBSCRIPTIONS = "/api/v1/me/push-subscriptions";
const SETTINGS = "/api/v1/me/notifications";

// The VAPID public key (base64url) as the bytes pushManager.subscribe wants.
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (char) => char.charCodeAt(0));
}

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function show(status, on, off, subscribed) {
  on.hidden = subscribed;
  off.hidden = !subscribed;
  status.textContent = subscribed
    ? gettext("This browser receives your notifications.")
    : gettext("This browser receives no notifications.");
}

async function setUpPush() {
  const section = $("push");
  const on = $("push-on");
  const off = $("push-off");
  const status = $("push-status");
  if (!section || !on || !off || !status) return;
  if (!pushSupported()) {
    status.textContent = gettext("This browser cannot receive notifications.");
    return;
  }
  const registration = await navigator.serviceWorker.register(section.dataset.worker);
  const current = await registration.pushManager.getSubscription();
  show(status, on, off, current !== null);

  on.addEventListener("click", async () => {
    let subscription = null;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        status.textContent = gettext("Notifications are blocked for this site in the browser's settings.");
        return;
      }
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(section.dataset.publicKey),
      });
      await api(SUBSCRIPTIONS, { method: "POST", body: subscription.toJSON() });
      show(status, on, off, true);
    } catch (error) {
      // The site refused it (too many browsers, a push service it does not accept): the
      // browser must not stay subscribed, or this page would say it gets notifications.
      if (subscription) await subscription.unsubscribe().catch(() => {});
      on.hidden = false;
      off.hidden = true;
      status.textContent = interpolate(gettext("Could not turn notifications on: %(error)s"), { error: error.message }, true);
    }
  });

  off.addEventListener("click", async () => {
    try {
      const subscription = await registration.pushManager.getSubscription();
      if (subscription) {
        await api(SUBSCRIPTIONS, { method: "DELETE", body: { endpoint: subscription.endpoint } });
        await subscription.unsubscribe();
      }
      show(status, on, off, false);
    } catch (error) {
      status.textContent = interpolate(gettext("Could not turn notifications off: %(error)s"), { error: error.message }, true);
    }
  });
}

// No zone chosen yet: take the browser's and save it, so that emails show local times.
// The page names zones by their places; a browser may name one by another of its ids
// ("Asia/Calcutta"), which the page's list of aliases maps to the one offered.
async function defaultTimeZone() {
  const select = $("id_time_zone");
  const status = $("zone-status");
  if (!select || !status || status.dataset.chosen) return;
  const aliases = JSON.parse($("zone-aliases")?.textContent || "{}");
  const seen = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = aliases[seen] || seen;
  const option = [...select.options].find((each) => each.value === zone);
  if (!zone || !option) return;
  const place = option.textContent.trim();
  try {
    await api(SETTINGS, { method: "PATCH", body: { time_zone: zone } });
    select.value = zone;
    status.dataset.chosen = zone;
    status.textContent = interpolate(gettext("Set to your browser's time zone, %(zone)s."), { zone: place }, true);
  } catch (error) {
    status.textContent = interpolate(gettext("Your browser's time zone is %(zone)s: choose it above and save."), { zone: place }, true);
  }
}

defaultTimeZone();
setUpPush().catch((error) => {
  const status = $("push-status");
  if (status) status.textContent = interpolate(gettext("Notifications are not available here: %(error)s"), { error: error.message }, true);
});
