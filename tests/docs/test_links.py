"""Every relative link in README.md and docs/ leads somewhere: the file exists and, when the
link names a heading (``page.md#a-heading``), the page has that heading."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PARSER = MarkdownIt("commonmark").enable("table")


def links(page: Path) -> list[str]:
    """The link targets of a page, as the Markdown parser reads them (so a link shown in
    a code block, which is not a link, is not checked)."""
    found = []
    for token in PARSER.parse(page.read_text()):
        for child in token.children or ():
            if child.type == "link_open":
                found.append(str(child.attrs["href"]))
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@cache
def anchors(page: Path) -> frozenset[str]:
    tokens = PARSER.parse(page.read_text())
    return frozenset(
        slug(tokens[index + 1].content)
        for index, token in enumerate(tokens)
        if token.type == "heading_open"
    )


def relative_links() -> list[tuple[Path, str]]:
    return [
        (page, target)
        for page in PAGES
        for target in links(page)
        if not urlsplit(target).scheme and not target.startswith("//")
    ]


def test_the_pages_link_to_each_other():
    # The README is a front door: every page of docs/ is reachable from it.
    linked = {
        (ROOT / urlsplit(target).path).resolve()
        for target in links(ROOT / "README.md")
        if not urlsplit(target).scheme
    }
    unlinked = [
        page.name
        for page in PAGES[1:]
        if page.resolve() not in linked and page.name != "asyncapi.yaml"
    ]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


@pytest.mark.parametrize(
    ("page", "target"),
    relative_links(),
    ids=lambda value: value.name if isinstance(value, Path) else value,
)
def test_every_relative_link_resolves(page: Path, target: str):
    parts = urlsplit(target)
    destination = (page.parent / unquote(parts.path)).resolve() if parts.path else page
    assert destination.exists(), f"{page.relative_to(ROOT)} links {target}: no such file"
    if parts.fragment and destination.suffix == ".md":
        assert unquote(parts.fragment) in anchors(destination), (
            f"{page.relative_to(ROOT)} links {target}: {destination.name} has no such heading"
        )
