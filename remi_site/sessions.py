"""Django's database sessions, with a cookie's key that no session could have being no
session rather than a server error.

Django writes a key of 32 lowercase letters and digits and accepts any text of eight
characters or more; a NUL in it reached PostgreSQL, which cannot even compare such a
text (tests/api/test_hostile_headers.py sends one).
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(key) and key is not None and len(key) >= 8 and key.isascii() and key.isalnum()
