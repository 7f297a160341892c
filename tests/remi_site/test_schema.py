"""The OpenAPI schema and its offline docs."""

from __future__ import annotations

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_schema_generates_without_warnings_and_validates(tmp_path):
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    assert "/api/v1/tokens" in out.read_text()


def test_schema_documents_the_error_shape_and_bearer_tokens(api_client):
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    assert schema["components"]["securitySchemes"]["apiToken"]["scheme"] == "bearer"
    error = schema["components"]["schemas"]["Error"]
    assert error["properties"]["error"]["$ref"].endswith("/ErrorDetail")
    revoke = schema["paths"]["/api/v1/tokens/{token_id}"]["delete"]
    assert {"204", "401", "404"} <= set(revoke["responses"])


def test_docs_are_served_from_the_sidecar_not_a_cdn(api_client):
    response = api_client.get("/api/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist" in html
    assert "cdn.jsdelivr.net" not in html
