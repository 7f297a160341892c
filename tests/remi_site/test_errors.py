"""One error shape for the whole API: {"error": {"code", "message", "details"}}."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.test import RequestFactory
from rest_framework.throttling import SimpleRateThrottle

from remi_site import views

pytestmark = pytest.mark.django_db


def error_of(response):
    body = json.loads(response.content)
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def test_unknown_api_url_is_404_in_the_error_shape(api_client):
    response = api_client.get("/api/v1/no-such-thing")

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_unknown_object_is_404_in_the_error_shape(auth_client):
    response = auth_client.delete("/api/v1/tokens/999999")

    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_missing_credentials_are_401_with_www_authenticate(api_client):
    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"
    assert error_of(response)["code"] == "not_authenticated"


def test_a_bad_token_is_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer remi_not-a-real-token")

    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert error_of(response)["code"] == "authentication_failed"


def test_csrf_failure_is_403_in_the_error_shape(user):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.patch("/api/v1/me", {"bio": "x"}, format="json")

    assert response.status_code == 403
    assert error_of(response)["code"] == "permission_denied"


def test_validation_errors_are_400_with_the_fields(auth_client):
    response = auth_client.post("/api/v1/tokens", {"name": "", "expires_in_days": 0})

    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid"
    assert set(error["details"]["fields"]) == {"name", "expires_in_days"}


def test_malformed_json_is_a_parse_error(auth_client):
    response = auth_client.generic(
        "POST", "/api/v1/tokens", "{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert error_of(response)["code"] == "parse_error"


def test_form_posts_are_not_accepted(auth_client):
    response = auth_client.post("/api/v1/tokens", {"name": "x"}, format="multipart")

    assert response.status_code == 415
    assert error_of(response)["code"] == "unsupported_media_type"


def test_wrong_method_is_405(auth_client):
    response = auth_client.put("/api/v1/tokens", {}, format="json")

    assert response.status_code == 405
    assert error_of(response)["code"] == "method_not_allowed"


def test_throttled_requests_are_429_with_retry_after(auth_client, clear_cache, monkeypatch):
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "user": "2/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    for _ in range(2):
        assert auth_client.get("/api/v1/me").status_code == 200

    response = auth_client.get("/api/v1/me")

    assert response.status_code == 429
    error = error_of(response)
    assert error["code"] == "throttled"
    assert 0 < int(response["Retry-After"]) <= 60
    assert error["details"]["retry_after"] == int(response["Retry-After"])


def test_anonymous_requests_are_throttled_too(api_client, clear_cache, monkeypatch):
    rates = {**SimpleRateThrottle.THROTTLE_RATES, "anon": "1/min"}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)
    assert api_client.post("/api/v1/auth/login", {}).status_code == 400

    response = api_client.post("/api/v1/auth/login", {})

    assert response.status_code == 429
    assert "Retry-After" in response


def test_server_errors_under_api_are_json():
    request = RequestFactory().get("/api/v1/anything")

    response = views.server_error(request)

    assert response.status_code == 500
    assert error_of(response)["code"] == "server_error"


def test_server_errors_elsewhere_are_a_page():
    response = views.server_error(RequestFactory().get("/somewhere"))

    assert response.status_code == 500
    assert b"Something went wrong" in response.content


def _server_error_while_handling(failure: Exception, request):
    """The 500 handler as Django calls it: inside the ``except`` that caught ``failure``."""
    try:
        raise failure
    except Exception:
        return views.server_error(request)


def test_a_database_that_does_not_answer_is_503_with_retry_after_in_the_readers_language():
    # SQLite's write lock held past its timeout (the embedded mode); PostgreSQL lost is
    # walked end to end in tests/remi_site/test_lost_services.py.
    request = RequestFactory().get("/api/v1/games/x", headers={"accept-language": "pl"})

    response = _server_error_while_handling(OperationalError("database is locked"), request)

    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    error = error_of(response)
    assert error["code"] == "service_unavailable" and error["details"] == {"retry_after": 10}
    assert error["message"].startswith("Serwis nie może teraz połączyć się")


def test_a_database_that_does_not_answer_is_a_page_that_says_to_reload():
    request = RequestFactory().get("/games/x/", headers={"accept-language": "sr-latn"})

    response = _server_error_while_handling(OperationalError("server closed"), request)

    assert response.status_code == 503 and response["Retry-After"] == "10"
    page = response.content.decode()
    assert "Vraćamo se za trenutak" in page
    # The page tries again by itself when Retry-After says to.
    assert '<meta http-equiv="refresh" content="10">' in page


def test_other_failures_stay_server_errors_in_the_readers_language():
    request = RequestFactory().get("/api/v1/games/x", headers={"accept-language": "mk"})

    response = _server_error_while_handling(ValueError("a bug"), request)

    assert response.status_code == 500
    assert error_of(response) == {
        "code": "server_error",
        "message": "Внатрешна грешка на серверот.",
        "details": {},
    }


def test_unknown_pages_are_a_page(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert b"Not found" in response.content


@pytest.mark.parametrize("host", ["evil.example", "remi.example@evil.example", "[::1"])
def test_a_forged_host_is_a_400_in_the_apis_error_shape(client, settings, host):
    settings.ALLOWED_HOSTS = ["remi.example"]

    response = client.get("/api/v1/rulesets", HTTP_HOST=host)

    assert response.status_code == 400
    assert error_of(response)["code"] == "bad_request"


def test_a_forged_host_is_the_400_page_elsewhere(client, settings):
    settings.ALLOWED_HOSTS = ["remi.example"]

    response = client.get("/", HTTP_HOST="evil.example")

    assert response.status_code == 400
    assert b"The request could not be read" in response.content


def test_a_server_error_keeps_the_language_the_middleware_chose_for_the_account():
    # The account's saved language (mk) was chosen before the view failed; the browser
    # asks for Polish.
    request = RequestFactory().get("/api/v1/games/x", headers={"accept-language": "pl"})
    request.LANGUAGE_CODE = "mk"

    response = _server_error_while_handling(OperationalError("server closed"), request)

    assert error_of(response)["message"].startswith("Страницата моментално")
