"""The embedded default's secret key: made once per machine, kept under ``var/``.

A key fixed in the source would let anyone who read it forge sessions on every
machine that runs the embedded default; one made on first start and kept beside
the SQLite file survives restarts (sessions stay valid) and never leaves the machine.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

KEY_FILE = "secret_key"


def embedded_secret_key(var_dir: Path) -> str:
    path = var_dir / KEY_FILE
    try:
        key = path.read_text().strip()
    except FileNotFoundError:
        key = ""
    if key:
        return key
    var_dir.mkdir(parents=True, exist_ok=True)
    draft = var_dir / f".{KEY_FILE}.{os.getpid()}"
    draft.write_text(secrets.token_urlsafe(50))
    draft.chmod(0o600)
    try:
        # A hard link appears whole or not at all: of two processes starting at once,
        # one puts its key in place and both use that one.
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return path.read_text().strip()
