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


def openapi(api_client) -> dict:
    return api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path, operation


def test_every_operation_documents_its_common_errors(api_client):
    for method, path, operation in operations(openapi(api_client)):
        statuses = set(operation["responses"])
        assert "429" in statuses, (method, path)  # every view is throttled
        if "requestBody" in operation:
            assert {"400", "413", "415"} <= statuses, (method, path)
        if "{" in path:
            assert "404" in statuses, (method, path)
        if operation["operationId"] not in {"auth_signup", "auth_login"}:
            # A bad token is refused even where none is needed.
            assert "401" in statuses, (method, path)


def test_creating_a_token_documents_its_throttle(api_client):
    create = openapi(api_client)["paths"]["/api/v1/tokens"]["post"]

    assert {"201", "400", "401", "413", "429"} <= set(create["responses"])


def test_a_cursor_paginated_list_documents_the_invalid_cursor_400(api_client):
    games = openapi(api_client)["paths"]["/api/v1/games"]["get"]

    assert "invalid_cursor" in games["responses"]["400"]["description"]
    assert (
        "invalid_cursor"
        in next(p for p in games["parameters"] if p["name"] == "cursor")["description"]
    )


def test_signup_accepts_the_defaults_and_the_empty_email_it_documents(api_client):
    signup = openapi(api_client)["components"]["schemas"]["SignupRequest"]["properties"]
    assert {"type": "string", "enum": [""]} in signup["email"]["anyOf"]
    body = {name: field["default"] for name, field in signup.items() if "default" in field}

    response = api_client.post(
        "/api/v1/auth/signup",
        {**body, "username": "mila", "password": "a-long-secret-42"},
        format="json",
    )

    assert response.status_code == 201, response.json()
    assert body == {"email": "", "display_name": ""}
    assert response.json()["display_name"] == "mila"
    assert response.json()["email"] == ""
