// The REST API, as the web pages use it: session cookie + CSRF token, JSON in and out,
// and the API's one error shape ({"error": {"code", "message", "details"}}).

import { formatSpan, gettext, interpolate } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  if (meta && meta.content) return meta.content;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

export async function api(path, { method = "GET", body, headers = {} } = {}) {
  const init = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json", ...headers },
  };
  if (method !== "GET") {
    init.headers["X-CSRFToken"] = csrfToken();
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body ?? {});
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", gettext("The server cannot be reached. Check your connection."));
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error;
    if (error) throw new ApiError(response.status, error.code, error.message, error.details || {});
    const retry = response.headers.get("Retry-After");
    let message;
    if (response.status !== 429) message = interpolate(gettext("The server answered %(status)s."), { status: response.status }, true);
    else if (retry) message = interpolate(gettext("Too many requests: try again in %(time)s."), { time: formatSpan(retry, "long") }, true);
    else message = gettext("Too many requests.");
    throw new ApiError(response.status, "http_" + response.status, message);
  }
  return data;
}

export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}
