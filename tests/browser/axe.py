"""axe-core in the page under test: the copy of axe.min.js that the pinned
``axe-playwright-python`` wheel bundles (requirements-dev.txt), so nothing is fetched
when the tests run."""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any

from playwright.sync_api import Page

# The impacts a page may not have; "minor" and "moderate" are reported by axe but
# not failed on.
BLOCKING_IMPACTS = frozenset({"serious", "critical"})


@cache
def axe_source() -> str:
    return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")


def blocking_violations(page: Page) -> list[dict[str, Any]]:
    """The serious and critical violations axe finds in the page as it is now."""
    # Evaluated over the devtools protocol, which the page's CSP does not govern.
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    results = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']})"
        ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => ({target: n.target, summary: n.failureSummary,"
        " impact: n.impact}))})))"
    )
    return [violation for violation in results if violation["impact"] in BLOCKING_IMPACTS]


def describe(violations: list[dict[str, Any]]) -> str:
    """One paragraph per rule: its id and help, then each failing element's selector
    and axe's summary of what to fix."""
    lines: list[str] = []
    for violation in violations:
        lines.append(f"[{violation['impact']}] {violation['id']}: {violation['help']}")
        for node in violation["nodes"]:
            target = " ".join(str(part) for part in node["target"])
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {target}\n        {summary}")
    return "\n".join(lines)
