"""``/api/asyncapi.yaml``: the websocket's event contract (docs/asyncapi.yaml), served as
written. An AsyncAPI 3 document: every frame a client sends to ``/ws/v1/`` and every
frame the server sends back, with the close codes; the test suite checks every frame it
sees against it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

DOCUMENT = Path(settings.BASE_DIR) / "docs" / "asyncapi.yaml"


@cache
def _document() -> bytes:
    return DOCUMENT.read_bytes()


@require_GET
def asyncapi_document(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(_document(), content_type="application/yaml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    return response
