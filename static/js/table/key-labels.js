// The table's key hints (the keyboard list's <kbd>, the hand tools' titles) show each
// letter key as the player's layout prints it: the key that draws is KeyD wherever it
// is pressed (keys.js), and on a Macedonian or Serbian layout its cap says "Д". The
// page is rendered with the Latin letters, kept where the browser cannot tell the
// layout (navigator.keyboard is Chromium's only).

// A hint's element names its key (data-key="KeyD"), or it is a <kbd> of a Latin
// capital letter (in the translated help texts, the letter is a placeholder's value).
function keyCode(node) {
  if (node.dataset.key) return node.dataset.key;
  const text = node.textContent.trim();
  return node.tagName === "KBD" && /^[A-Z]$/.test(text) ? `Key${text}` : null;
}

// The title's Latin letter standing alone, the last one ("(key L)", "(klawisz L)").
function replaceLetter(text, latin, shown) {
  const alone = new RegExp(`(?<!\\p{L})${latin}(?!\\p{L})`, "gu");
  const found = [...text.matchAll(alone)];
  if (!found.length) return text;
  const at = found[found.length - 1].index;
  return text.slice(0, at) + shown + text.slice(at + latin.length);
}

export async function showKeysAsTheLayoutPrints() {
  const keyboard = navigator.keyboard;
  if (!keyboard || typeof keyboard.getLayoutMap !== "function") return;
  let layout;
  try {
    layout = await keyboard.getLayoutMap();
  } catch {
    return; // not allowed here (a frame, an insecure page): the Latin letters stay
  }
  for (const node of document.querySelectorAll("[data-key], kbd")) {
    const code = keyCode(node);
    const printed = code && layout.get(code);
    if (!printed) continue;
    const shown = printed.toLocaleUpperCase();
    const latin = code.slice("Key".length);
    if (node.tagName === "KBD") node.textContent = shown;
    else if (node.title) node.title = replaceLetter(node.title, latin, shown);
  }
}
