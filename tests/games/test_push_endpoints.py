"""Where Web Push may be aimed, decided by address and not by spelling: every way of
writing a local or private address is refused at registration (a 400 naming the
endpoint), a push service's name that resolves to one too, again at sending time;
and an account has at most ``PUSH_SUBSCRIPTIONS_PER_USER`` browsers."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings

from games import tasks
from games.models import PushSubscription
from tests.gamekit import SchemaChecker, error_of
from tests.games.concurrency_kit import at_once, second_device
from tests.games.push_kit import FCM_ENDPOINT, browser_keys, fake_dns

__all__ = ["fake_dns"]  # a fixture

pytestmark = pytest.mark.django_db

SUBSCRIPTIONS = "/api/v1/me/push-subscriptions"
PRIVATE = "This push address leads to a private or local network, not to the Internet."


def subscribe(client: Any, endpoint: str, **headers: str) -> Any:
    subscription = {"endpoint": endpoint, "keys": browser_keys()}
    return client.post(SUBSCRIPTIONS, subscription, format="json", **headers)


def refused_endpoint(response: Any) -> str:
    """The message of a 400 that names the endpoint."""
    assert response.status_code == 400, response.json()
    error = error_of(response)
    assert error["code"] == "invalid"
    message: str = error["details"]["fields"]["endpoint"]
    return message


# ------------------------------------------------------------------ registration


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "2130706433",  # 127.0.0.1 as one number
        "0",  # 0.0.0.0, which reaches this machine
        "127.1",
        "0x7f000001",
        "017700000001",
        "0177.0.0.1",
        "10.1",  # 10.0.0.1
        "localhost",
        "localhost.",
        "[::1]",
        "[::ffff:127.0.0.1]",  # IPv4-mapped
        "[::ffff:10.0.0.1]",
        "[::ffff:7f00:1]",
        "[::]",
        "[fe80::1]",
        "[fc00::1]",
        "[64:ff9b::7f00:1]",  # NAT64 of 127.0.0.1
        "[2002:7f00:1::1]",  # 6to4 of 127.0.0.1
    ],
)
def test_every_spelling_of_a_local_or_private_address_is_refused(auth_client, host, settings):
    settings.PUSH_SERVICE_HOSTS = []  # any host: the address alone decides

    message = refused_endpoint(subscribe(auth_client, f"https://{host}/push/1"))

    assert message in (PRIVATE, "The push service's address could not be found.")
    assert not PushSubscription.objects.exists()


def test_a_name_the_hosts_file_maps_to_this_machine_is_refused_as_private(auth_client, settings):
    settings.PUSH_SERVICE_HOSTS = []

    assert refused_endpoint(subscribe(auth_client, "https://localhost/push/1")) == PRIVATE


def test_a_push_services_name_that_resolves_to_a_private_address_is_refused(auth_client, fake_dns):
    fake_dns.names["fcm.googleapis.com"] = ["10.20.30.40"]

    refused = subscribe(auth_client, f"{FCM_ENDPOINT}private")

    assert refused_endpoint(refused) == PRIVATE
    SchemaChecker(auth_client).check("POST", SUBSCRIPTIONS, 400, refused.json())


def test_a_name_with_one_private_address_among_public_ones_is_refused(auth_client, fake_dns):
    fake_dns.names["fcm.googleapis.com"] = ["142.250.185.74", "2a00:1450::1", "::1"]

    assert refused_endpoint(subscribe(auth_client, f"{FCM_ENDPOINT}mixed")) == PRIVATE


def test_a_public_host_that_is_no_browsers_push_service_is_refused_unresolved(
    auth_client, fake_dns
):
    fake_dns.names["push.example.com"] = ["93.184.215.14"]

    message = refused_endpoint(subscribe(auth_client, "https://push.example.com/send/1"))

    assert message == "This address is not one of the browsers' push services."
    assert fake_dns.lookups["push.example.com"] == 0


def test_a_push_services_address_with_a_user_name_or_odd_characters_is_refused(
    auth_client, fake_dns
):
    for endpoint in (
        "https://fcm.googleapis.com@127.0.0.1/push/1",
        "https://user@fcm.googleapis.com/push/1",
        "https://127.0.0.1\\@fcm.googleapis.com/push/1",
        "https://fcm.googleapis.com:8443/fcm/send/1",
        "https://fcm.googleapis.com:99999/fcm/send/1",
    ):
        assert refused_endpoint(subscribe(auth_client, endpoint)), endpoint
    assert not PushSubscription.objects.exists()


def test_a_known_push_service_with_public_addresses_is_accepted(auth_client, fake_dns):
    fake_dns.names["updates.push.services.mozilla.com"] = ["34.107.221.82", "2600:1901::1"]

    created = subscribe(auth_client, "https://updates.push.services.mozilla.com/wpush/v2/abc")

    assert created.status_code == 201, created.json()


# ------------------------------------------------------------------ how many browsers


def test_the_eleventh_browser_of_an_account_is_refused(auth_client, user, fake_dns):
    for number in range(10):
        assert subscribe(auth_client, f"{FCM_ENDPOINT}{number}").status_code == 201

    refused = subscribe(auth_client, f"{FCM_ENDPOINT}eleventh")

    assert refused.status_code == 409, refused.json()
    error = error_of(refused)
    assert error["code"] == "too_many_push_subscriptions"
    assert error["message"] == (
        "Push notifications already go to 10 browsers, the most an account may have. "
        "Turn them off in one first."
    )
    SchemaChecker(auth_client).check("POST", SUBSCRIPTIONS, 409, refused.json())
    assert PushSubscription.objects.filter(user=user).count() == 10


def test_a_browser_registered_again_does_not_count_twice(auth_client, user, fake_dns):
    for number in range(10):
        assert subscribe(auth_client, f"{FCM_ENDPOINT}{number}").status_code == 201

    again = subscribe(auth_client, f"{FCM_ENDPOINT}3")  # new keys, same browser

    assert again.status_code == 201, again.json()
    assert PushSubscription.objects.filter(user=user).count() == 10


@pytest.mark.django_db(transaction=True)
def test_browsers_registered_at_once_never_go_past_the_limit(auth_client, user, fake_dns):
    for number in range(9):
        assert subscribe(auth_client, f"{FCM_ENDPOINT}{number}").status_code == 201
    devices = [second_device(auth_client) for _ in range(4)]

    answers = at_once(
        *(
            lambda device=device, n=n: subscribe(device, f"{FCM_ENDPOINT}at-once-{n}")
            for n, device in enumerate(devices)
        )
    )

    assert sorted(answer.status_code for answer in answers) == [201, 409, 409, 409]
    assert PushSubscription.objects.filter(user=user).count() == 10


def test_the_limit_is_a_setting(auth_client, fake_dns, settings):
    settings.PUSH_SUBSCRIPTIONS_PER_USER = 1
    assert subscribe(auth_client, f"{FCM_ENDPOINT}one").status_code == 201

    refused = subscribe(auth_client, f"{FCM_ENDPOINT}two")

    assert refused.status_code == 409
    assert error_of(refused)["message"].startswith("Push notifications already go to 1 browser,")


# ------------------------------------------------------------------ at sending time


def opted_in(client: Any) -> None:
    assert (
        client.patch(
            "/api/v1/me/notifications", {"push_challenges": True}, format="json"
        ).status_code
        == 200
    )


def test_a_subscription_whose_name_now_resolves_privately_is_dropped_uncontacted(
    auth_client, user, fake_dns
):
    opted_in(auth_client)
    assert subscribe(auth_client, f"{FCM_ENDPOINT}rebound").status_code == 201
    fake_dns.names["fcm.googleapis.com"] = ["127.0.0.1"]  # the name now points here

    tasks.challenge_notice.delay(user_id=user.pk, challenger="Jova", url="/play/")

    assert not PushSubscription.objects.filter(user=user).exists()
    # Nothing connected: a connection to the address would have looked it up.
    assert fake_dns.lookups["127.0.0.1"] == 0


def test_a_subscription_whose_name_does_not_resolve_now_is_kept_and_skipped(
    auth_client, user, fake_dns
):
    opted_in(auth_client)
    assert subscribe(auth_client, f"{FCM_ENDPOINT}offline").status_code == 201
    fake_dns.names["fcm.googleapis.com"] = []  # no such name now

    tasks.challenge_notice.delay(user_id=user.pk, challenger="Jova", url="/play/")

    assert PushSubscription.objects.filter(user=user).exists()
    assert fake_dns.lookups["fcm.googleapis.com"] == 2  # registration, then the send


def test_a_subscription_the_setting_no_longer_allows_is_dropped(auth_client, user, fake_dns):
    opted_in(auth_client)
    assert subscribe(auth_client, f"{FCM_ENDPOINT}old").status_code == 201

    with override_settings(PUSH_SERVICE_HOSTS=["push.apple.com"]):
        tasks.challenge_notice.delay(user_id=user.pk, challenger="Jova", url="/play/")

    assert not PushSubscription.objects.filter(user=user).exists()


def test_refusals_are_said_in_the_players_language(auth_client, fake_dns, settings):
    polish = {"HTTP_ACCEPT_LANGUAGE": "pl"}
    settings.PUSH_SUBSCRIPTIONS_PER_USER = 2
    fake_dns.names["fcm.googleapis.com"] = ["192.168.1.20"]

    private = refused_endpoint(subscribe(auth_client, f"{FCM_ENDPOINT}lan", **polish))

    fake_dns.names["fcm.googleapis.com"] = ["142.250.185.74"]
    for number in range(2):
        subscribe(auth_client, f"{FCM_ENDPOINT}{number}")
    too_many = error_of(subscribe(auth_client, f"{FCM_ENDPOINT}third", **polish))["message"]
    assert private == (
        "Ten adres powiadomień push prowadzi do sieci prywatnej lub lokalnej, a nie do internetu."
    )
    assert too_many.startswith("Powiadomienia push trafiają już do 2 przeglądarek,")
