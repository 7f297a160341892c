// Reporting a line of the table chat to the moderators: POST /api/v1/reports with the
// line's id, a reason from the fixed list and an optional text. One dialog for the page,
// built on first use; the line's "Report" button says when its report is in.

import { api } from "./api.js";
import { button, el } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";
import { namedAlone } from "./names.js";

const TEXT_MAX_LENGTH = 2000; // accounts.models.REPORT_TEXT_MAX_LENGTH

// The reasons the API accepts (accounts.models.Report.Reason), abusive chat first.
function reasons() {
  return [
    ["abuse", gettext("Abusive chat")],
    ["cheating", gettext("Cheating or collusion")],
    ["stalling", gettext("Stalling")],
    ["name", gettext("Offensive name")],
    ["other", gettext("Other")],
  ];
}

let dialog = null;

// The small "Report" control at the end of someone else's chat line.
export function reportButton(message) {
  const name = namedAlone(message.user);
  return button(gettext("Report"), "chat-report", (event) => openReport(message, event.currentTarget), {
    "aria-label": interpolate(gettext("Report this message from %(name)s"), { name }, true),
    "data-report": String(message.id),
  });
}

function openReport(message, trigger) {
  const parts = dialog || buildDialog();
  dialog = parts;
  parts.message = message;
  parts.trigger = trigger;
  parts.quote.textContent = `${namedAlone(message.user)}: ${message.text}`;
  parts.reason.value = "abuse";
  parts.text.value = "";
  parts.status.textContent = "";
  parts.status.className = "chat-report-status small";
  parts.form.hidden = false;
  parts.done.hidden = true;
  parts.node.showModal();
  parts.reason.focus();
}

function buildDialog() {
  const node = el("dialog", "summary chat-report-dialog");
  node.id = "chat-report-dialog";
  node.setAttribute("aria-labelledby", "chat-report-title");
  const title = el("h2", null, gettext("Report a chat message"));
  title.id = "chat-report-title";
  const quote = el("blockquote", "chat-report-quote");

  const form = el("form", "chat-report-form");
  form.method = "dialog";
  const reasonLabel = el("label", null, gettext("Reason"));
  reasonLabel.htmlFor = "chat-report-reason";
  const reason = el("select");
  reason.id = "chat-report-reason";
  reason.name = "reason";
  for (const [value, label] of reasons()) {
    const option = el("option", null, label);
    option.value = value;
    reason.append(option);
  }
  const textLabel = el("label", null, gettext("What happened (optional)"));
  textLabel.htmlFor = "chat-report-text";
  const text = el("textarea");
  text.id = "chat-report-text";
  text.name = "text";
  text.rows = 3;
  text.maxLength = TEXT_MAX_LENGTH;
  const status = el("p", "chat-report-status small");
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  const send = el("button", "button button-small", gettext("Send the report"));
  send.type = "submit";
  const cancel = button(gettext("Cancel"), "button button-small button-quiet", () => node.close());
  const actions = el("div", "chat-report-actions");
  actions.append(send, cancel);
  form.append(reasonLabel, reason, textLabel, text, actions);

  const done = el("div", "chat-report-done");
  done.append(
    el("p", null, gettext("Thank you: the moderators will look at it.")),
    button(gettext("Close"), "button button-small", () => node.close()),
  );
  node.append(title, quote, form, done, status);
  document.body.append(node);

  const parts = { node, quote, form, reason, text, status, done, message: null, trigger: null };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(parts, send);
  });
  node.addEventListener("close", () => {
    // Back where the reader was: the line's button, or the chat once it is reported.
    const back = parts.trigger && parts.trigger.isConnected && !parts.trigger.disabled ? parts.trigger : parts.trigger && parts.trigger.closest("ol");
    if (back) back.focus();
  });
  return parts;
}

async function submit(parts, send) {
  send.disabled = true;
  parts.status.textContent = gettext("Sending…");
  parts.status.className = "chat-report-status small";
  try {
    await api("/api/v1/reports", {
      method: "POST",
      body: { message: parts.message.id, reason: parts.reason.value, text: parts.text.value.trim() },
    });
    reported(parts);
  } catch (error) {
    if (error && error.code === "already_reported") {
      reported(parts, gettext("You have already reported this message."));
    } else {
      parts.status.textContent = (error && error.message) || gettext("The report could not be sent. Try again.");
      parts.status.className = "chat-report-status small chat-report-error";
    }
  } finally {
    send.disabled = false;
  }
}

function reported(parts, note = "") {
  parts.form.hidden = true;
  parts.done.hidden = false;
  parts.status.textContent = note || gettext("Report sent.");
  if (parts.trigger) {
    parts.trigger.textContent = gettext("Reported");
    parts.trigger.disabled = true;
  }
  const close = parts.done.querySelector("button");
  if (close) close.focus();
}
