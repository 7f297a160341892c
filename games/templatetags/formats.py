"""``{% load formats %}``: dates, times, durations and numbers in the active language and
time zone, through ``remi_site.formats`` (CLDR's words and grammar):

``{{ when|day }}`` "7 gru 2026", ``{{ when|day:"long" }}``, ``{{ joined|month }}``
"grudnia 2026" (after "since"), ``{{ when|moment }}`` "7 gru 2026, 21:06",
``{{ when|moment:"full" }}``, ``{{ when|clock }}``, ``{{ when|since }}`` "3 godziny"
(the time gone by), ``{{ when|until }}`` (the time left), ``{{ count|number }}``
"1.234", ``{{ change|signed }}`` "+25", ``{{ 90|seconds }}`` "1 min i 30 s", ``{{ 3|days }}``
"3 dni", ``{{ "RS"|country }}`` "Serbia", ``{% listed names as n %}…{% endlisted %}``
"ana, bo и cvetko".
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django import template
from django.template.base import FilterExpression, Parser, Token
from django.utils import timezone

from remi_site import countries, formats

register = template.Library()


@register.filter
def day(value: date | datetime | None, form: formats.DateForm = "medium") -> str:
    return "" if value is None else formats.day(value, form)


@register.filter
def month(value: date | datetime | None) -> str:
    return "" if value is None else formats.month(value)


@register.filter
def moment(value: datetime | None, form: formats.DateForm = "medium") -> str:
    return "" if value is None else formats.moment(value, form)


@register.filter
def clock(value: datetime | None) -> str:
    return "" if value is None else formats.clock(value)


@register.filter
def since(value: datetime | None) -> str:
    return "" if value is None else formats.duration(timezone.now() - value)


@register.filter
def until(value: datetime | None) -> str:
    return "" if value is None else formats.duration(value - timezone.now())


@register.filter
def seconds(value: int) -> str:
    """A number of seconds in CLDR's short units, as a live game's pace is written."""
    return formats.duration(timedelta(seconds=value), "short", seconds=True)


@register.filter
def days(value: int) -> str:
    """A number of days in CLDR's words: "1 dzień", "5 dni"."""
    return formats.unit(value, "day", "long")


@register.filter
def country(code: str) -> str:
    """A country's ISO code as its name in the active language: "Србија"."""
    return countries.name(code) if code else ""


@register.filter
def rating(value: int | float | None) -> str:
    return "" if value is None else formats.rating(value)


@register.filter
def number(value: int | float | None) -> str:
    return "" if value is None else formats.number(value)


@register.filter
def signed(value: int | float | None) -> str:
    return "" if value is None else formats.signed(value)


@register.filter
def decimal(value: float | None, places: int = 1) -> str:
    return "" if value is None else formats.decimal(value, places)


@register.filter
def percent(value: float | None) -> str:
    return "" if value is None else formats.percent(value)


@register.filter
def zone(value: object = None) -> str:
    """The active time zone's name, to say which zone a time printed beside is in."""
    return formats.zone_name()


class _ListedNode(template.Node):
    def __init__(
        self,
        sequence: FilterExpression,
        name: str,
        body: template.NodeList,
        empty: template.NodeList | None,
    ) -> None:
        self.sequence, self.name, self.body, self.empty = sequence, name, body, empty

    def render(self, context: template.Context) -> str:
        items = list(self.sequence.resolve(context, ignore_failures=True) or ())
        if not items:
            return self.empty.render(context) if self.empty is not None else ""
        pieces = []
        with context.push():
            for item in items:
                context[self.name] = item
                pieces.append(self.body.render(context).strip())
        return formats.markup_list(pieces)


@register.tag
def listed(parser: Parser, token: Token) -> _ListedNode:
    """``{% listed game.opponents as o %}{{ o.name }} <span>…</span>{% empty %}…{% endlisted %}``:
    each item's markup joined as the language joins a list ("ana, bo и cvetko"), where
    a ``for`` loop would put a bare comma between them."""
    bits = token.split_contents()
    if len(bits) != 4 or bits[2] != "as":
        raise template.TemplateSyntaxError("usage: {% listed <sequence> as <name> %}")
    body = parser.parse(("empty", "endlisted"))
    empty = None
    if parser.next_token().contents == "empty":
        empty = parser.parse(("endlisted",))
        parser.delete_first_token()
    return _ListedNode(parser.compile_filter(bits[1]), bits[3], body, empty)
