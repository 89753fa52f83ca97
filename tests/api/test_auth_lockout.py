"""Password guessing (issue #11, point 6): X-Forwarded-For is not the client's to choose, and repeated
failures lock the account and the address out (django-axes) on the token endpoint, the admin and the
site's sign-in page, with the API's error shape under /api/ and a page elsewhere, never a 500."""

import random
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import NoReverseMatch, reverse
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token/"
LIMIT = 5
ADDRESS_LIMIT = 15  # well above the account's: a hall shares one address


@pytest.fixture(autouse=True)
def _small_limit(settings):
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.LOGIN_FAILURE_LIMIT_ADDRESS = ADDRESS_LIMIT
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)


@pytest.fixture
def victim(db):
    user = UserFactory(username="victim")
    user.set_password("the-right-one")
    user.save()
    return user


def random_ip() -> str:
    return ".".join(str(random.randint(1, 254)) for _ in range(4))


def ask(client, username, password, **extra):
    return client.post(TOKEN_URL, {"username": username, "password": password}, format="json", **extra)


def codes(response) -> list[str]:
    return [e["code"] for e in response.json()["errors"]]


def move_attempts_back(by: timedelta) -> None:
    """Let time pass for the lockout: every recorded failure happened ``by`` earlier."""
    for attempt in AccessAttempt.objects.all():
        AccessAttempt.objects.filter(pk=attempt.pk).update(attempt_time=attempt.attempt_time - by)


def test_a_hundred_guesses_with_random_forwarded_for_are_stopped(victim):
    client = APIClient()
    answers = [ask(client, "victim", f"guess-{i}", HTTP_X_FORWARDED_FOR=random_ip()) for i in range(100)]
    statuses = [a.status_code for a in answers]
    assert statuses[:LIMIT - 1] == [400] * (LIMIT - 1)
    assert set(statuses[LIMIT - 1:]) == {429}, statuses
    assert {c for a in answers[LIMIT - 1:] for c in codes(a)} <= {"locked_out", "throttled"}
    assert codes(answers[LIMIT - 1]) == ["locked_out"]
    # The header was not trusted: every failure is counted against the one socket address.
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}
    # ... and the right password is refused too, in the API's error shape, with a Retry-After.
    locked = ask(client, "victim", "the-right-one", HTTP_X_FORWARDED_FOR=random_ip())
    assert locked.status_code == 429 and locked.json()["type"] == "client_error"
    assert set(locked.json()) == {"type", "errors"} and int(locked["Retry-After"]) > 0


def test_the_account_is_locked_whatever_the_address(victim):
    """Each guess from another socket address (a botnet): the account's own count locks it."""
    for i in range(LIMIT):
        ask(APIClient(REMOTE_ADDR=random_ip()), "victim", f"guess-{i}")
    refused = ask(APIClient(REMOTE_ADDR=random_ip()), "victim", "the-right-one")
    assert refused.status_code == 429 and codes(refused) == ["locked_out"]
    assert "token" not in refused.json()


def test_the_address_is_locked_whatever_the_account(victim):
    """One address trying many accounts: the address's count locks it at its own, higher limit, even for a
    real account."""
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    for i in range(ADDRESS_LIMIT - 1):
        assert ask(client, f"nobody-{i}", "guess").status_code == 400, i
    assert ask(client, "nobody-last", "guess").status_code == 429
    assert codes(ask(client, "victim", "the-right-one")) == ["locked_out"]
    assert ask(APIClient(REMOTE_ADDR="203.0.113.10"), "victim", "the-right-one").status_code == 200


def test_a_hall_behind_one_address_is_not_locked_out_by_its_typos():
    """Twelve scorekeepers sign in from the hall's one address, each after a typo: nobody is locked out,
    though the typos outnumber an account's limit."""
    for i in range(12):
        user = UserFactory(username=f"keeper-{i}")
        user.set_password("right-password")
        user.save()
    client = APIClient(REMOTE_ADDR="192.0.2.50")
    for i in range(12):
        assert ask(client, f"keeper-{i}", "typo").status_code == 400
        assert ask(client, f"keeper-{i}", "right-password").status_code == 200, i


def test_the_lock_ends_after_the_cool_off(victim):
    client = APIClient()
    for i in range(LIMIT):
        ask(client, "victim", f"guess-{i}")
    assert ask(client, "victim", "the-right-one").status_code == 429
    move_attempts_back(timedelta(minutes=14))
    assert ask(client, "victim", "the-right-one").status_code == 429
    move_attempts_back(timedelta(minutes=2))
    ok = ask(client, "victim", "the-right-one")
    assert ok.status_code == 200 and ok.json()["token"]
    # A success resets the count: the next failures start from zero.
    assert ask(client, "victim", "wrong").status_code == 400


def test_failures_below_the_limit_then_success_reset_the_count(victim):
    client = APIClient()
    for _ in range(LIMIT - 1):
        assert ask(client, "victim", "wrong").status_code == 400
    assert ask(client, "victim", "the-right-one").status_code == 200
    for _ in range(LIMIT - 1):
        assert ask(client, "victim", "wrong").status_code == 400
    assert ask(client, "victim", "the-right-one").status_code == 200


def test_trusted_proxies_take_the_address_their_proxy_saw(settings, victim):
    """Behind one proxy (TRUSTED_PROXIES=1), the last X-Forwarded-For entry is the client."""
    settings.TRUSTED_PROXIES = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = APIClient(REMOTE_ADDR="10.0.0.2")  # the proxy
    for i in range(ADDRESS_LIMIT):
        # The client may prepend what it likes; the proxy appends the address it saw.
        ask(client, f"nobody-{i}", "guess", HTTP_X_FORWARDED_FOR=f"{random_ip()}, 198.51.100.7")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}
    locked = ask(client, "victim", "the-right-one", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert codes(locked) == ["locked_out"]
    other = ask(client, "victim", "the-right-one", HTTP_X_FORWARDED_FOR="198.51.100.8")
    assert other.status_code == 200


def test_the_admin_login_is_locked_likewise(victim):
    victim.is_staff = True
    victim.save()
    client = Client()
    url = reverse("admin:login")
    for i in range(LIMIT - 1):
        response = client.post(url, {"username": "victim", "password": f"guess-{i}"})
        assert response.status_code == 200  # the form again, with its error
    last = client.post(url, {"username": "victim", "password": "guess-last"})
    assert last.status_code == 429
    refused = client.post(url, {"username": "victim", "password": "the-right-one"})
    assert refused.status_code == 429 and refused["Content-Type"].startswith("text/html")
    assert b"Too many failed sign-ins" in refused.content and b"<h1>" in refused.content
    assert "_auth_user_id" not in client.session
    # The token endpoint shares the count: the account is locked there too.
    assert codes(ask(APIClient(REMOTE_ADDR=random_ip()), "victim", "the-right-one")) == ["locked_out"]


def test_the_sites_sign_in_page_is_locked_with_a_clear_page(victim):
    try:
        url = reverse("ws:login")
    except NoReverseMatch:
        pytest.skip("the site's sign-in page (ws:login) is not mounted")
    client = Client()
    for i in range(LIMIT):
        client.post(url, {"username": "victim", "password": f"guess-{i}"})
    refused = client.post(url, {"username": "victim", "password": "the-right-one"})
    assert refused.status_code == 429
    assert b"Too many failed sign-ins" in refused.content and b"site-header" in refused.content
    assert "_auth_user_id" not in client.session


def test_request_less_authenticate_is_neither_counted_nor_refused(victim):
    """A shell or the test client's login() has no address: it works and records nothing."""
    assert Client().login(username="victim", password="the-right-one")
    assert not Client().login(username="victim", password="wrong")
    assert not AccessAttempt.objects.exists()
