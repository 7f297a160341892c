// Short messages in the corner: errors stay longer than news, and a few at most are kept.

import { $, button, el } from "../dom.js";
import { gettext } from "../i18n.js";

export function toast(message, kind = "error") {
  const box = $("toasts");
  const item = el("div", `toast toast-${kind}`);
  item.setAttribute("role", kind === "error" ? "alert" : "status");
  item.append(el("span", "toast-text", message));
  const close = button("×", "toast-close", () => item.remove(), { "aria-label": gettext("Dismiss") });
  item.append(close);
  box.append(item);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => item.classList.add("toast-leaving"), kind === "error" ? 6000 : 3500);
  setTimeout(() => item.remove(), kind === "error" ? 6600 : 4100);
}
