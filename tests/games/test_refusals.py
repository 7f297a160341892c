"""Every refusal the engine can raise has a translatable message, and says the same
values in another language as in English."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from games.engine import PRESETS, IllegalAction, IllegalMeld, arrange_meld, parse_action
from games.engine.cards import parse_cards
from games.refusals import REFUSALS, refusal_text

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
LANGUAGES = ("mk", "sr-latn", "sr-cyrl", "pl")


def _constant(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _raised_in_engine() -> set[tuple[str, str]]:
    """(code, variant) of every ``IllegalAction``/``IllegalMeld`` built with a literal code,
    with each variant named literally or through a module's ``_*VARIANTS`` table."""
    found: set[tuple[str, str]] = set()
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        tables = {
            target.id: [_constant(value) for value in node.value.values]
            for node in ast.walk(tree)
            if isinstance(node, ast.AnnAssign | ast.Assign) and isinstance(node.value, ast.Dict)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name) and target.id.endswith("VARIANTS")
        }
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("IllegalAction", "IllegalMeld")
                and node.args
            ):
                continue
            code = _constant(node.args[0])
            if code is None:
                continue  # a refusal passed on with the code it came with
            variant_node = next((k.value for k in node.keywords if k.arg == "variant"), None)
            variants: list[str | None]
            if variant_node is None:
                variants = [""]
            elif isinstance(variant_node, ast.Subscript) and isinstance(
                variant_node.value, ast.Name
            ):
                variants = list(tables[variant_node.value.id])
            elif isinstance(variant_node, ast.IfExp):
                variants = [_constant(variant_node.body), _constant(variant_node.orelse)]
            else:
                variants = [_constant(variant_node)]
            assert None not in variants, f"{path.name}:{node.lineno}: a variant not written out"
            found.update((code, variant) for variant in variants if variant is not None)
    return found


def test_every_refusal_the_engine_raises_has_a_message_to_translate():
    raised = _raised_in_engine()
    assert len(raised) > 30  # the walk found the engine's refusals
    missing = sorted(raised - REFUSALS.keys())
    assert missing == []


def test_the_table_names_no_refusal_the_engine_never_raises():
    assert sorted(REFUSALS.keys() - _raised_in_engine()) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_is_translated_with_the_same_values(language):
    with translation.override(language):
        for (code, variant), template in REFUSALS.items():
            if not isinstance(template, str):
                continue  # a plural: test_a_refusal_with_a_count_takes_the_languages_plural
            translated = translation.gettext(template)
            assert translated != template, (language, code, variant)
            names = {part.split(")")[0] for part in template.split("%(")[1:]}
            assert {part.split(")")[0] for part in translated.split("%(")[1:]} == names


PLURALS = {key: template for key, template in REFUSALS.items() if not isinstance(template, str)}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", sorted(PLURALS))
def test_a_refusal_with_a_count_takes_the_languages_plural(language, key):
    params = {"held": 1, "card": "7H", "named": 2, "limit": 1}
    said = {}
    for count in (1, 2, 5):
        values = {**params, "named": count, "limit": count}
        with translation.override("en"):
            english = str(PLURALS[key] % values)
        with translation.override(language):
            said[count] = str(PLURALS[key] % values)
        assert said[count] != english and str(count) in said[count], (language, key, count)
    with translation.override("en"):
        assert str(PLURALS[key] % {**params, "named": 1, "limit": 1}).endswith(("time", "joker"))


def test_a_refusal_in_english_is_the_engines_own_message():
    with pytest.raises(IllegalAction) as caught:
        parse_action("fly away")
    with translation.override("en"):
        assert refusal_text(caught.value) == caught.value.message


def test_a_refusal_keeps_its_cards_and_values_in_another_language():
    with pytest.raises(IllegalMeld) as caught:
        arrange_meld(parse_cards("JK JK JK"), PRESETS["macedonian"])
    error = caught.value
    with translation.override("pl"):
        text = refusal_text(error)
    assert text != str(error)
    assert text.endswith("(Joker Joker Joker)")


@pytest.mark.parametrize("language", ["en", "pl", "mk"])
def test_a_refusal_shows_its_cards_as_the_table_draws_them(language: str) -> None:
    with pytest.raises(IllegalMeld) as caught:
        arrange_meld(parse_cards("AD JS 6H"), PRESETS["polish51"])
    with translation.override(language):
        text = refusal_text(caught.value)
    assert text.endswith("(A♦ J♠ 6♥)"), text
    assert "AD" not in text
