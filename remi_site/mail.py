"""The embedded default's mail: every message on the console and in a file under
``var/mail/``, so that whoever runs the site on their machine can follow a
verification or password-reset link without a mail server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.mail.backends import console, filebased
from django.core.mail.message import EmailMessage


class ConsoleAndFileBackend(filebased.EmailBackend):
    """Django's file backend (one file per connection in ``EMAIL_FILE_PATH``) that also
    writes each message to the console, as the console backend does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._console = console.EmailBackend(fail_silently=self.fail_silently)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = super().send_messages(email_messages)
        self._console.send_messages(email_messages)
        return sent
