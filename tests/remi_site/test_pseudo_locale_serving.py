"""The pseudo-locale is served only where it is turned on: production leaves it off,
so no person is offered it or gets it by asking their browser for "en-XA"."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests import pseudo_locale_kit as pseudo

pytestmark = pytest.mark.django_db


def test_without_the_flag_the_pseudo_locale_is_neither_served_nor_listed() -> None:
    assert pseudo.LANGUAGE not in dict(django_settings.LANGUAGES)

    page = Client(HTTP_ACCEPT_LANGUAGE="en-XA").get("/accounts/login/")

    assert page.status_code == 200
    text = page.content.decode()
    assert '<html lang="en"' in text
    assert pseudo.OPEN not in text
    assert f'value="{pseudo.LANGUAGE}"' not in text


def test_turned_on_it_answers_a_browser_that_asks_for_it(settings: Any) -> None:
    language = pseudo.enable(settings)

    page = Client(HTTP_ACCEPT_LANGUAGE="en-XA").get("/accounts/login/")

    assert page.status_code == 200
    text = page.content.decode()
    assert f'<html lang="{language}"' in text
    assert pseudo.OPEN in text and pseudo.CLOSE in text
    catalogue = Client(HTTP_ACCEPT_LANGUAGE="en-XA").get("/jsi18n/")
    # The scripts' catalogue, as JSON: the marker itself or its \u escape.
    script = catalogue.content.decode()
    assert pseudo.OPEN in script or pseudo.OPEN.encode("unicode_escape").decode() in script


def test_the_site_settings_leave_it_off_unless_asked() -> None:
    """REMI_PSEUDO_LOCALE unset, as in production."""
    from remi_site import settings as production

    assert production.PSEUDO_LOCALE is False
    assert pseudo.LANGUAGE not in dict(production.LANGUAGES)
    assert production.PSEUDO_LOCALE_PATH not in production.LOCALE_PATHS
