"""The engine's words that people read (presets, the rules' fields, the cards) have a
translation in every language of the site."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import PRESETS
from games.engine.cards import Card
from games.engine.rules_doc import FIELD_DOCS
from games.engine_words import (
    FIELD_MEANINGS,
    PRESET_TEXTS,
    card_name,
    preset_description,
    preset_display_name,
)

LANGUAGES = ("mk", "sr-latn", "sr-cyrl", "pl")


def test_every_preset_name_and_description_is_listed_for_the_catalogues():
    for ruleset in PRESETS.values():
        assert ruleset.display_name in PRESET_TEXTS
        assert ruleset.description in PRESET_TEXTS


def test_every_field_meaning_is_listed_for_the_catalogues():
    assert set(FIELD_DOCS.values()) <= set(FIELD_MEANINGS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_preset_has_its_name_and_description_in_every_language(language):
    with translation.override(language):
        for preset, ruleset in PRESETS.items():
            assert preset_display_name(preset) != ruleset.display_name, (language, preset)
            assert preset_description(preset) != ruleset.description, (language, preset)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_field_meaning_is_translated(language):
    with translation.override(language):
        untranslated = [text for text in FIELD_MEANINGS if translation.gettext(text) == text]
    assert untranslated == []


def test_cards_are_named_in_the_language_asked_for():
    with translation.override("en"):
        assert card_name(Card.parse("AS")) == "ace of spades"
        assert card_name(Card.parse("7H")) == "7 of hearts"
    with translation.override("pl"):
        assert card_name(Card.parse("QD")) == "dama karo"
        assert card_name(Card.parse("JK")) == "joker"
    with translation.override("sr-cyrl"):
        assert card_name(Card.parse("KC")) == "краљ треф"


def test_an_unknown_preset_is_named_by_its_id():
    assert preset_display_name("no_such_rules") == "no_such_rules"
