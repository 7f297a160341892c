"""The API's JSON renderer writes what DRF's writes."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer as DRFJSONRenderer

from remi_site.renderers import JSONRenderer

ours = JSONRenderer()
drf = DRFJSONRenderer()

_moments = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1)).flatmap(
    lambda moment: st.sampled_from(
        [
            moment,
            moment.replace(tzinfo=UTC),
            moment.replace(tzinfo=timezone(timedelta(hours=2))),
            moment.replace(tzinfo=timezone(timedelta(0), "GMT")),
            moment.replace(tzinfo=ZoneInfo("Europe/London")),
            moment.replace(tzinfo=ZoneInfo("Europe/Belgrade")),
        ]
    )
)
_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)))
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    _text,
    st.sampled_from(["\u2028", "a\u2029b", "ünïcødé", "7♥"]),
    _moments,
    st.dates(),
    st.decimals(allow_nan=False, allow_infinity=False, places=2, max_value=10**6),
)
_documents = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(_text, st.integers(-5, 5)), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(_documents)
def test_the_bytes_are_drfs_for_any_document_without_floats(document: Any) -> None:
    assert ours.render(document) == drf.render(document)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=6))
def test_floats_carry_the_same_values(values: list[float]) -> None:
    assert json.loads(ours.render({"values": values})) == json.loads(drf.render({"values": values}))


def test_dates_read_as_drf_writes_them() -> None:
    moment = datetime(2026, 12, 3, 14, 5, 6, 789000, tzinfo=UTC)
    rendered = ours.render({"at": moment, "day": date(2026, 12, 3), "lazy": gettext_lazy("joker")})
    assert rendered == b'{"at":"2026-12-03T14:05:06.789000Z","day":"2026-12-03","lazy":"joker"}'
    london_winter = datetime(2026, 1, 5, 9, 30, tzinfo=ZoneInfo("Europe/London"))
    belgrade = datetime(2026, 7, 5, 9, 30, tzinfo=ZoneInfo("Europe/Belgrade"))
    assert (
        ours.render([london_winter, belgrade])
        == b'["2026-01-05T09:30:00Z","2026-07-05T09:30:00+02:00"]'
    )
    assert ours.render([london_winter, belgrade]) == drf.render([london_winter, belgrade])


def test_line_separators_are_escaped_as_drf_escapes_them() -> None:
    assert ours.render({"chat": "a\u2028b\u2029c"}) == b'{"chat":"a\\u2028b\\u2029c"}'


def test_an_integer_beyond_64_bits_and_an_indented_answer_go_through_drfs_renderer() -> None:
    huge = {"seed": 2**70, "cards": ["7H"]}
    assert ours.render(huge) == drf.render(huge)
    indented = "application/json; indent=2"
    assert ours.render(huge, indented) == drf.render(huge, indented)
    assert b"\n  " in ours.render(huge, indented)


def test_decimals_and_non_string_keys_read_as_drf_writes_them() -> None:
    document = {1: Decimal("2.50"), None: [True, None], "x": (1, 2)}
    assert ours.render(document) == drf.render(document)


def test_a_float_that_is_not_a_number_is_written_as_null_instead_of_failing() -> None:
    assert ours.render({"value": float("nan")}) == b'{"value":null}'


def test_nothing_renders_as_no_body() -> None:
    assert ours.render(None) == b""
