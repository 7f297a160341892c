// A game's house rules as the lobby and the table's waiting room show them: every field
// of its ruleset that differs from the preset's (the API's `house_rules`), so a player
// sees them before joining.

import { el } from "./dom.js";
import { gettext, interpolate } from "./i18n.js";

export function houseRulesList(rules, { heading = "h3" } = {}) {
  if (!rules || !rules.length) return null;
  const box = el("div", "house-rules-shown");
  box.append(el(heading, "house-rules-title", gettext("House rules")));
  const list = el("ul", "house-rules-list");
  for (const rule of rules) {
    const item = el("li");
    item.dataset.field = rule.name;
    item.append(
      el("span", "house-rule-meaning", rule.meaning),
      " ",
      el("strong", "house-rule-value", rule.game),
      " ",
      el("span", "muted", interpolate(gettext("(by the book: %(value)s)"), { value: rule.preset }, true)),
    );
    list.append(item);
  }
  box.append(list);
  return box;
}
