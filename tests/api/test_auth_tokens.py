"""Tokens that expire, one per device, revocable (issue #11, point 7; django-rest-knox)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from api.models import AuthToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def keeper(db):
    user = UserFactory(username="keeper")
    user.set_password("s3cret-pass")
    user.save()
    return user


def sign_in(device=None, username="keeper", password="s3cret-pass"):
    body = {"username": username, "password": password}
    if device is not None:
        body["device"] = device
    return APIClient().post("/api/v1/auth/token/", body, format="json")


def with_token(key) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_token_expires_and_names_its_device(settings, keeper):
    response = sign_in("Table 3 phone")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "expiry", "device"} and body["device"] == "Table 3 phone"
    token = AuthToken.objects.get(user=keeper)
    assert token.digest != body["token"] and body["token"] not in token.digest  # only a digest is stored
    assert abs(token.expiry - (timezone.now() + timedelta(days=30))) < timedelta(minutes=1)
    assert with_token(body["token"]).get("/api/v1/auth/me/").json()["username"] == "keeper"


def test_the_same_device_replaces_its_token_other_devices_keep_theirs(keeper):
    first = sign_in("phone").json()["token"]
    laptop = sign_in("laptop").json()["token"]
    second = sign_in("phone").json()["token"]
    assert with_token(first).get("/api/v1/auth/me/").status_code == 401
    assert with_token(second).get("/api/v1/auth/me/").status_code == 200
    assert with_token(laptop).get("/api/v1/auth/me/").status_code == 200
    assert sorted(AuthToken.objects.values_list("device", flat=True)) == ["laptop", "phone"]
    # Unnamed sign-ins each get a token of their own.
    sign_in(), sign_in()
    assert AuthToken.objects.filter(device="").count() == 2


def test_logout_revokes_this_token_only(keeper):
    phone, laptop = sign_in("phone").json()["token"], sign_in("laptop").json()["token"]
    client = with_token(phone)
    assert client.post("/api/v1/auth/logout/").status_code == 204
    assert client.get("/api/v1/auth/me/").status_code == 401
    assert with_token(laptop).get("/api/v1/auth/me/").status_code == 200
    assert APIClient().post("/api/v1/auth/logout/").status_code == 401


def test_the_user_lists_their_tokens_without_keys_and_revokes_one(keeper):
    phone = sign_in("phone").json()["token"]
    laptop = sign_in("laptop").json()["token"]
    other = UserFactory(username="other")
    other_token, other_key = AuthToken.objects.create(other, device="theirs")
    client = with_token(phone)
    response = client.get("/api/v1/auth/tokens/")
    assert response.status_code == 200
    rows = response.json()["results"]  # the lists' page (issue 29)
    assert [(r["device"], r["current"]) for r in rows] == [("laptop", False), ("phone", True)]
    assert all(set(r) == {"id", "device", "created", "expiry", "current"} for r in rows)
    for key in (phone, laptop, other_key):
        assert key not in response.content.decode()
        assert key[:20] not in response.content.decode()
    laptop_id = next(r["id"] for r in rows if r["device"] == "laptop")
    assert client.delete(f"/api/v1/auth/tokens/{laptop_id}/").status_code == 204
    assert with_token(laptop).get("/api/v1/auth/me/").status_code == 401
    # Someone else's token is not yours to see or revoke.
    assert client.delete(f"/api/v1/auth/tokens/{other_token.token_key}/").status_code == 404
    assert with_token(other_key).get("/api/v1/auth/me/").status_code == 200
    assert APIClient().get("/api/v1/auth/tokens/").status_code == 401


def test_an_expired_token_is_refused_and_deleted(keeper):
    token, key = AuthToken.objects.create(keeper, device="old phone")
    AuthToken.objects.filter(pk=token.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    response = with_token(key).get("/api/v1/auth/me/")
    assert response.status_code == 401 and response.json()["errors"][0]["code"] == "authentication_failed"
    assert not AuthToken.objects.filter(pk=token.pk).exists()


def test_use_renews_the_expiry_up_to_the_cap(settings, keeper):
    token, key = AuthToken.objects.create(keeper)
    soon = timezone.now() + timedelta(days=1)
    AuthToken.objects.filter(pk=token.pk).update(expiry=soon)
    assert with_token(key).get("/api/v1/auth/me/").status_code == 200
    token.refresh_from_db()
    assert token.expiry > timezone.now() + timedelta(days=29)
    # Issued a year ago: renewal stops at TOKEN_MAX_TTL_DAYS after issue.
    issued = timezone.now() - timedelta(days=365) + timedelta(hours=5)
    AuthToken.objects.filter(pk=token.pk).update(created=issued, expiry=timezone.now() + timedelta(hours=1))
    assert with_token(key).get("/api/v1/auth/me/").status_code == 200
    token.refresh_from_db()
    assert abs(token.expiry - (issued + timedelta(days=365))) < timedelta(seconds=5)


def test_a_fresh_token_reads_one_row_and_writes_nothing(keeper):
    """Authentication costs one query, as DRF's tokens did: no sweep of other tokens, no refresh write."""
    for device in ("a", "b", "c"):
        sign_in(device)
    _, key = AuthToken.objects.create(keeper, device="d")
    client = with_token(key)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/auth/me/").status_code == 200
    token_queries = [q["sql"] for q in queries.captured_queries if "api_authtoken" in q["sql"]]
    assert len(token_queries) == 1 and token_queries[0].startswith("SELECT"), token_queries


def test_the_schema_documents_the_token_endpoints(served_schema):
    schema = served_schema
    paths = schema["paths"]
    assert {"/api/v1/auth/logout/", "/api/v1/auth/tokens/", "/api/v1/auth/tokens/{token_id}/"} <= set(paths)
    token_answer = paths["/api/v1/auth/token/"]["post"]["responses"]["200"]["content"]["application/json"]
    ref = token_answer["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(schema["components"]["schemas"][ref]["properties"]) == {"token", "expiry", "device"}
