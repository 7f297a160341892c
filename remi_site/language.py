"""The language of each response, and the language switcher on every page.

A signed-in person's saved language (``Profile.language``, their settings) wins; a
visitor gets the switcher's cookie, else the browser's Accept-Language (Django's
``LocaleMiddleware``). Choosing a language in the switcher while signed in saves it
to their settings, so that the settings page, the emails and every device agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import translation
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import preferences
from accounts.authentication import request_user
from accounts.models import Profile

LANGUAGE_FIELD = "language"


def _supported(code: str | None) -> str | None:
    """The code when it is one of settings.LANGUAGES (as the account stores them)."""
    if code and code in dict(settings.LANGUAGES):
        return code
    return None


def account_language(request: HttpRequest) -> str | None:
    """The saved language of the signed-in person, or None (a visitor, or a token
    request, whose user the API authenticates later)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    # Read on its own, not through ``user.profile``: a profile cached on the user now
    # would be stale for a view that changes it and reads it again in this request.
    return saved_language(user.pk)


def saved_language(user_id: int) -> str | None:
    """The language saved in the settings of the account ``user_id``, if any."""
    saved = Profile.objects.filter(user_id=user_id).values_list("language", flat=True).first()
    return _supported(saved)


def header_language(scope: Mapping[str, Any]) -> str:
    """The best of a connection's Accept-Language that the site speaks, else the site's
    default (no database: a websocket refused at once must not wait for one)."""
    header = dict(scope.get("headers") or ()).get(b"accept-language", b"")
    for code, _quality in parse_accept_lang_header(header.decode("latin-1")[:255]):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class AccountLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, with the signed-in person's saved language first.
    After AuthenticationMiddleware; the site has no language prefixes in its URLs."""

    def process_request(self, request: HttpRequest) -> None:
        language = account_language(request)
        if language is None:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


@require_POST
def set_language(request: HttpRequest) -> HttpResponseBase:
    """Django's ``set_language`` (the cookie, the redirect back), which also saves the
    choice to the signed-in person's settings."""
    response = django_set_language(request)
    language = _supported(request.POST.get(LANGUAGE_FIELD))
    if language is not None and account_language(request) not in (None, language):
        preferences.settings_update(user=request_user(request), language=language)
    return response
