"""Numbers that a template writes for a person to read without the language's way of
writing them: ``{{ entry.rating }}`` gives "1500" on a Macedonian page, where CLDR
writes "1.500" (``{{ entry.rating|number }}``, ``remi_site.formats``).

``numbers_written_raw()`` watches every template rendered meanwhile, in any thread (the
live server's too), and collects each int or float that reaches the page's text bare:
a ``{{ … }}`` in the text or in an attribute a person reads (``title``, ``aria-label``,
``alt``, ``placeholder``), or a value of a ``{% blocktranslate %}`` sentence. A number
in any other attribute (a link, an id, an SVG coordinate, a ``data-`` value) is for
the page, not for a person, and so is one named as an identifier (``pk``, ``id``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from django.template import base
from django.templatetags import i18n

READ_ATTRIBUTES = frozenset({"title", "aria-label", "alt", "placeholder"})
IDENTIFIER = re.compile(r"(?:^|[._])(?:pk|id)$")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@cache
def _source(name: str) -> str:
    try:
        return Path(name).read_text(encoding="utf-8")
    except OSError:
        return ""


def _attribute_at(source: str, start: int) -> str | None:
    """The attribute whose value holds ``start`` in ``source``, or None in the text."""
    before = source[:start]
    if before.rfind("<") <= before.rfind(">"):
        return None
    named = re.search(r'([\w:-]+)="[^"]*$', before[before.rfind("<") :])
    return named[1] if named else ""


def _read_by_a_person(template: str, expression: str) -> bool:
    """Whether ``{{ expression }}`` stands in ``template``'s text or a read attribute
    (anywhere, when the source cannot tell)."""
    source = _source(template)
    places = [
        _attribute_at(source, found.start())
        for found in re.finditer(r"\{\{\s*" + re.escape(expression) + r"\s*\}\}", source)
    ]
    return not places or any(place is None or place in READ_ATTRIBUTES for place in places)


@contextmanager
def numbers_written_raw() -> Iterator[set[str]]:
    """The numbers written bare meanwhile, each as "template: expression"."""
    found: set[str] = set()
    render_variable = base.VariableNode.render
    render_sentence = i18n.BlockTranslateNode.render

    def variable(node: Any, context: Any) -> Any:
        expression = node.filter_expression.token
        template = getattr(node.origin, "name", "?")
        if not IDENTIFIER.search(expression) and _read_by_a_person(template, expression):
            try:
                value = node.filter_expression.resolve(context)
            except Exception:  # noqa: BLE001 - the real render says what went wrong
                value = None
            if _is_number(value):
                found.add(f"{node.origin.template_name}: {{{{ {expression} }}}}")
        return render_variable(node, context)

    def sentence(node: Any, context: Any, nested: bool = False) -> Any:
        said = {
            token.contents
            for tokens in (node.singular, node.plural or [])
            for token in tokens
            if token.token_type == base.TokenType.VAR
        }
        values = dict(node.extra_context)
        if node.countervar and node.counter:
            values[node.countervar] = node.counter
        for name in said & values.keys():
            expression = values[name]
            if IDENTIFIER.search(expression.token):
                continue
            try:
                value = expression.resolve(context)
            except Exception:  # noqa: BLE001
                value = None
            if _is_number(value):
                found.add(f"{node.origin.template_name}: blocktranslate {name}={expression.token}")
        return render_sentence(node, context, nested)

    base.VariableNode.render = variable  # type: ignore[method-assign]
    i18n.BlockTranslateNode.render = sentence  # type: ignore[method-assign]
    try:
        yield found
    finally:
        base.VariableNode.render = render_variable  # type: ignore[method-assign]
        i18n.BlockTranslateNode.render = render_sentence  # type: ignore[method-assign]
