"""The workspace's accounts: sign in and out, the password, My tournaments, the header, invitations."""

import pytest
from django.core import mail, signing
from django.urls import reverse

from tests.factories import ClubFactory, TournamentFactory, UserFactory
from tests.web.conftest import make_tournament
from web.workspace import invites

pytestmark = pytest.mark.django_db

PASSWORD = "pw-for-tests"


@pytest.fixture
def organizer(db):
    return UserFactory(username="organizer", first_name="")


@pytest.fixture
def cup(organizer):
    tournament = TournamentFactory(name="Gentse Beker", slug="gentse-beker", club=ClubFactory(name="De Zwarte Kat"))
    tournament.organizers.add(organizer)
    return tournament


# -- sign in and out, the password -----------------------------------------------------------------

def test_the_sign_in_page_is_in_the_sites_look(client):
    response = client.get(reverse("ws:login"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="site-header"' in html and 'name="username"' in html and 'name="password"' in html
    assert "workspace.css" in html


def test_a_wrong_password_is_refused_in_words_on_the_page(client, organizer):
    response = client.post(reverse("ws:login"), {"username": "organizer", "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_signing_in_lands_on_my_tournaments(client, organizer):
    response = client.post(reverse("ws:login"), {"username": "organizer", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("ws:home")
    assert client.get(reverse("ws:home")).status_code == 200


def test_signing_in_goes_back_to_the_page_asked_for(client, organizer, cup):
    edit = reverse("ws:tournament-edit", args=[cup.slug])
    response = client.get(edit)
    assert response.status_code == 302 and response["Location"].startswith(reverse("ws:login") + "?next=")
    response = client.post(response["Location"], {"username": "organizer", "password": PASSWORD, "next": edit})
    assert response["Location"] == edit


def test_the_sign_in_refuses_to_send_elsewhere(client, organizer):
    response = client.post(reverse("ws:login"), {"username": "organizer", "password": PASSWORD,
                                                 "next": "https://evil.example/"})
    assert response["Location"] == reverse("ws:home")


def test_my_tournaments_asks_a_visitor_to_sign_in(client):
    response = client.get(reverse("ws:home"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('ws:login')}?next={reverse('ws:home')}"


def test_signing_out_is_a_post_and_ends_on_the_public_site(client, organizer):
    client.force_login(organizer)
    assert client.get(reverse("ws:logout")).status_code == 405
    response = client.post(reverse("ws:logout"))
    assert response.status_code == 302 and response["Location"] == reverse("web:home")
    assert "_auth_user_id" not in client.session


def test_the_password_is_changed_with_the_old_one(client, organizer):
    client.force_login(organizer)
    url = reverse("ws:password-change")
    response = client.post(url, {"old_password": "wrong", "new_password1": "Zw4rte-Kat-2026",
                                 "new_password2": "Zw4rte-Kat-2026"})
    assert response.status_code == 200 and "has-error" in response.content.decode()
    response = client.post(url, {"old_password": PASSWORD, "new_password1": "Zw4rte-Kat-2026",
                                 "new_password2": "Zw4rte-Kat-2026"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("ws:home")
    assert "Your password was changed." in response.content.decode()
    organizer.refresh_from_db()
    assert organizer.check_password("Zw4rte-Kat-2026")


# -- the header --------------------------------------------------------------------------------------

def test_the_header_offers_sign_in_or_names_the_user(client, organizer):
    html = client.get(reverse("web:home")).content.decode()
    assert reverse("ws:login") in html and "Sign out" not in html
    client.force_login(organizer)
    html = client.get(reverse("web:home")).content.decode()
    assert "organizer" in html and reverse("ws:home") in html and "Sign out" in html
    assert f'action="{reverse("ws:logout")}"' in html


def test_a_live_page_never_answers_one_users_page_to_another(client, db):
    """The standings page's ETag varies by user (the header names them): another user's tag is no 304."""
    tournament = make_tournament(4)
    url = reverse("web:standings", args=[tournament.slug])
    client.get(url)  # the first visit sets the CSRF cookie, which the tag depends on too
    first = client.get(url)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    ann, bob = UserFactory(username="ann"), UserFactory(username="bob")
    client.force_login(ann)
    as_ann = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert as_ann.status_code == 200 and "ann" in as_ann.content.decode()
    assert client.get(url, HTTP_IF_NONE_MATCH=as_ann["ETag"]).status_code == 304
    client.force_login(bob)
    as_bob = client.get(url, HTTP_IF_NONE_MATCH=as_ann["ETag"])
    assert as_bob.status_code == 200
    assert "bob" in as_bob.content.decode() and ">ann<" not in as_bob.content.decode()
    client.post(reverse("ws:logout"))
    assert client.get(url, HTTP_IF_NONE_MATCH=as_bob["ETag"]).status_code == 200


# -- My tournaments -----------------------------------------------------------------------------------

def test_my_tournaments_empty_says_what_to_do(client, organizer):
    client.force_login(organizer)
    html = client.get(reverse("ws:home")).content.decode()
    assert "You organize no tournament yet" in html
    assert "When an organizer invites you as a scorekeeper" in html
    assert "You manage no club" in html
    assert reverse("ws:tournament-new") in html


def test_my_tournaments_lists_only_mine(client, organizer, cup, django_assert_max_num_queries):
    club = ClubFactory(name="Café Sportwereld")
    club.managers.add(organizer)
    kept = TournamentFactory(name="Brugse Beker", slug="brugse-beker")
    kept.scorekeepers.add(organizer)
    both = TournamentFactory(name="Both Cup", slug="both-cup")
    both.organizers.add(organizer)
    both.scorekeepers.add(organizer)
    TournamentFactory(name="Not Mine", slug="not-mine").organizers.add(UserFactory())
    ClubFactory(name="Not My Club")
    client.force_login(organizer)
    with django_assert_max_num_queries(8):
        response = client.get(reverse("ws:home"))
    html = response.content.decode()
    assert "Gentse Beker" in html and "Brugse Beker" in html and "Café Sportwereld" in html
    assert "Not Mine" not in html and "Not My Club" not in html
    assert html.count("Both Cup") == 1  # listed once, as organized
    assert reverse("ws:tournament-edit", args=[cup.slug]) in html
    assert reverse("ws:invite", args=[cup.slug]) in html
    assert reverse("ws:tournament-edit", args=[kept.slug]) not in html  # a scorekeeper does not edit


# -- invitations --------------------------------------------------------------------------------------

def _token(client, cup, role="scorekeeper", **extra):
    response = client.post(reverse("ws:invite", args=[cup.slug]), {"role": role, **extra})
    assert response.status_code == 200
    link = response.context["link"]
    return link, link.rstrip("/").rsplit("/", 1)[1]


def test_only_an_organizer_may_invite(client, cup):
    url = reverse("ws:invite", args=[cup.slug])
    assert client.get(url).status_code == 302  # signed out: to the sign-in
    keeper = UserFactory(username="keeper")
    cup.scorekeepers.add(keeper)
    client.force_login(keeper)
    assert client.get(url).status_code == 404
    assert client.post(url, {"role": "organizer"}).status_code == 404
    client.force_login(UserFactory(username="stranger"))
    assert client.get(url).status_code == 404


def test_an_invitation_link_is_shown_to_copy_and_e_mailed(client, organizer, cup):
    client.force_login(organizer)
    assert client.get(reverse("ws:invite", args=[cup.slug])).status_code == 200
    response = client.post(reverse("ws:invite", args=[cup.slug]), {"role": "scorekeeper", "email": "kim@example.org"})
    html = response.content.decode()
    link = response.context["link"]
    assert link.startswith("http://testserver/my/invite/") and f'value="{link}"' in html
    assert "data-copy=" in html and "Sent to kim@example.org" in html
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["kim@example.org"]
    assert link in mail.outbox[0].body and "Gentse Beker" in mail.outbox[0].subject


def test_without_an_e_mail_backend_the_link_is_only_shown(client, organizer, cup, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    client.force_login(organizer)
    response = client.get(reverse("ws:invite", args=[cup.slug]))
    assert 'name="email"' not in response.content.decode()
    link, _token_ = _token(client, cup, email="kim@example.org")
    assert link and not mail.outbox


def test_a_signed_in_user_accepts_and_gets_the_role(client, organizer, cup):
    client.force_login(organizer)
    _link, token = _token(client, cup, "scorekeeper")
    keeper = UserFactory(username="keeper")
    client.force_login(keeper)
    url = reverse("ws:invite-accept", args=[token])
    html = client.get(url).content.decode()
    assert "invites you to keep score at" in html and "Gentse Beker" in html
    assert not cup.scorekeepers.filter(pk=keeper.pk).exists()  # a GET changes nothing
    response = client.post(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("ws:home")
    assert cup.scorekeepers.filter(pk=keeper.pk).exists()
    assert "Gentse Beker" in response.content.decode()
    # Accepting again changes nothing and says so.
    response = client.post(url, follow=True)
    assert "You already had this role" in response.content.decode()
    assert cup.scorekeepers.count() == 1


def test_a_co_organizer_invitation_makes_an_organizer(client, organizer, cup):
    client.force_login(organizer)
    _link, token = _token(client, cup, "organizer")
    co = UserFactory(username="co")
    client.force_login(co)
    client.post(reverse("ws:invite-accept", args=[token]))
    assert set(cup.organizers.values_list("username", flat=True)) == {"organizer", "co"}
    assert client.get(reverse("ws:tournament-edit", args=[cup.slug])).status_code == 200


def test_someone_without_an_account_makes_one_and_gets_the_role(client, organizer, cup):
    client.force_login(organizer)
    _link, token = _token(client, cup, "scorekeeper")
    client.logout()
    url = reverse("ws:invite-accept", args=[token])
    html = client.get(url).content.decode()
    assert 'name="password2"' in html and f"{reverse('ws:login')}?next=" in html
    response = client.post(url, {"username": "kim", "password1": "Zw4rte-Kat-2026", "password2": "other-pw-2026"})
    assert response.status_code == 200 and "has-error" in response.content.decode()
    assert not cup.scorekeepers.exists()
    response = client.post(url, {"username": "kim", "password1": "Zw4rte-Kat-2026", "password2": "Zw4rte-Kat-2026"})
    assert response["Location"] == reverse("ws:home")
    assert list(cup.scorekeepers.values_list("username", flat=True)) == ["kim"]
    assert client.get(reverse("ws:home")).context["user"].username == "kim"


@pytest.mark.parametrize("case, status, words", [
    ("tampered", 400, "not valid"), ("garbage", 400, "not valid"), ("expired", 410, "has expired"),
    ("withdrawn", 410, "was withdrawn"), ("deleted", 410, "was withdrawn"),
])
def test_a_bad_invitation_gets_a_clear_page(client, organizer, cup, settings, case, status, words):
    token = invites.make_token(tournament=cup, role="scorekeeper", inviter=organizer)
    if case == "tampered":
        token = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    elif case == "garbage":
        token = "not-a-token"
    elif case == "expired":
        settings.INVITE_MAX_AGE = -1
    elif case == "withdrawn":
        cup.organizers.remove(organizer)
    elif case == "deleted":
        cup.delete()
    client.force_login(UserFactory(username="keeper"))
    for method in (client.get, client.post):
        response = method(reverse("ws:invite-accept", args=[token]))
        assert response.status_code == status
        assert words in response.content.decode()
    assert not TournamentFactory._meta.model.scorekeepers.through.objects.exists()


def test_a_token_of_another_salt_is_not_an_invitation(client, organizer, cup):
    token = signing.dumps({"t": cup.pk, "r": "organizer", "b": organizer.pk})  # signed, but not as an invite
    client.force_login(UserFactory(username="keeper"))
    assert client.post(reverse("ws:invite-accept", args=[token])).status_code == 400
    assert not cup.organizers.filter(username="keeper").exists()


def test_the_invitation_lasts_seven_days_by_default(settings):
    from django.conf import settings as live

    assert live.INVITE_MAX_AGE == 7 * 24 * 3600


def test_the_demos_organizer_and_scorekeeper_sign_in_to_my_tournaments(client):
    from io import StringIO

    from django.core.management import call_command

    call_command("load_demo", stdout=StringIO())
    for username, section in (("organizer", "Tournaments I organize"), ("scorekeeper", "Tournaments I keep score for")):
        client.logout()
        response = client.post(reverse("ws:login"), {"username": username, "password": username}, follow=True)
        assert response.redirect_chain == [(reverse("ws:home"), 302)]
        context = response.context
        listed = context["organized"] if username == "organizer" else context["scorekept"]
        assert listed, f"{username} sees no tournament"
        assert section in response.content.decode()
    assert response.context["clubs"] == [] and not response.context["organized"]
