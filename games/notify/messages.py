"""Emails: rendered from ``templates/emails/`` in the recipient's time zone, with the
links of the message (the game, the settings page, a one-click unsubscribe for its
kind and, about a game, a link that mutes it), and the ``List-Unsubscribe`` and
``List-Unsubscribe-Post`` headers (RFC 8058) that let a mail client unsubscribe in
one click."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.models import PlayerSettings
from games.notify import links, recipients
from games.notify.preferences import zone_of
from games.notify.tokens import Kind, Unsubscribe, unsubscribe_token
from games.notify.wording import display_name
from remi_site import formats, zone_names

logger = logging.getLogger(__name__)


def language_of(user: Any) -> str:
    """The recipient's saved language (the site's default for one without a profile)."""
    language = str(getattr(getattr(user, "profile", None), "language", "") or "")
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


@contextmanager
def recipient_locale(user: Any, prefs: PlayerSettings) -> Iterator[None]:
    """The recipient's language and time zone, for all that a message to them says
    (its words are built before the email is: the time left, the result, the names)."""
    with translation.override(language_of(user)), timezone.override(zone_of(prefs)):
        yield


def email_build(
    *,
    user: Any,
    prefs: PlayerSettings,
    template: str,
    kind: Kind,
    context: Mapping[str, Any],
    game_id: str = "",
) -> EmailMultiAlternatives:
    """The email ``template`` (``emails/<template>_subject.txt``, ``.txt`` and
    ``.html``) to ``user``, which their unsubscribe link for ``kind`` turns off;
    ``game_id``: the game it is about (its mute link)."""
    unsubscribe = links.unsubscribe_url(unsubscribe_token(Unsubscribe(user.pk, kind)))
    mute = (
        links.unsubscribe_url(unsubscribe_token(Unsubscribe(user.pk, Kind.GAME, game_id)))
        if game_id
        else ""
    )
    full = {
        **context,
        "name": display_name(user),
        "unsubscribe_url": unsubscribe,
        "mute_url": mute,
        "settings_url": links.settings_url(),
        "game_url": links.game_url(game_id) if game_id else "",
    }
    with recipient_locale(user, prefs):
        full["zone_name"] = formats.zone_name(prefs.time_zone or zone_names.UNIVERSAL)
        subject = " ".join(render_to_string(f"emails/{template}_subject.txt", full).split())
        text = render_to_string(f"emails/{template}.txt", full)
        html = render_to_string(f"emails/{template}.html", full)
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def email_send(**build: Any) -> bool:
    """Build (see ``email_build``) and send an email; False when the user has no
    address, when the account is closed or banned (``recipients.is_reachable``), or
    when the mail server refused it or is away (logged): a notice's push, and the
    other players' mail, still go."""
    if not build["user"].email or not recipients.is_reachable(build["user"].pk):
        return False
    user, template = build["user"], build["template"]
    try:
        email_build(**build).send()
    except OSError:  # smtplib's errors are OSErrors, as a refused connection is
        logger.exception("the %s email to user %s was not sent", template, user.pk)
        return False
    return True
