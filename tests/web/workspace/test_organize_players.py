"""The entries page of an individual event: players entered from the lists or typed new (with a club or none),
start numbers before the first draw, reserves and fixed tables, kept-apart pairs, a withdrawal said in words under
the event's rule, removal before round 1; searchable and a page of fifty at a time."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import Entry, KeptApart, Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(client):
    user = UserFactory(username="orga")
    client.force_login(user)
    return user


@pytest.fixture
def event(organizer):
    return individual_event(22, organizer=organizer)


def entries_url(t, **query):
    url = reverse("ws:entries", args=[t.slug])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def entry_of(t, name) -> Entry:
    return Entry.objects.get(tournament=t, player__name=name)


def test_an_empty_event_says_how_to_enter_players(client, organizer):
    t = individual_event(0, organizer=organizer)
    page = client.get(entries_url(t)).content.decode()
    assert "0 players entered" in page and "No player is entered yet" in page
    assert 'action="' + reverse("ws:player-new", args=[t.slug]) in page


def test_the_list_shows_players_with_start_numbers_clubs_and_none(client, event):
    page = client.get(entries_url(event)).content.decode()
    assert "22 players entered" in page
    assert 'name="number-{}" value="1"'.format(entry_of(event, "An Peeters").pk) in page
    assert "Kaarting De Kat club A" in page
    assert "no club" in page  # Karel Hermans and Vic Renard play for no club


def test_a_page_of_fifty_and_a_search_by_name_club_or_number(client, organizer):
    t = individual_event(60, organizer=organizer)
    first = client.get(entries_url(t)).content.decode()
    assert "Page 1 of 2" in first and "Speler 51" not in first
    second = client.get(entries_url(t, page=2)).content.decode()
    assert "Speler 51" in second and "An Peeters" not in second
    found = client.get(entries_url(t, q="peeters")).content.decode()
    assert "An Peeters" in found and "Bart Claes" not in found
    by_number = client.get(entries_url(t, q="2")).content.decode()
    assert "Bart Claes" in by_number and "An Peeters" not in by_number
    assert "No entered player matches" in client.get(entries_url(t, q="zzz")).content.decode()


def test_a_player_found_in_a_club_is_entered_with_the_next_number(client, event):
    player = PlayerFactory(name="Zoë Van Damme", club=ClubFactory(name="Café Sport"))
    found = client.get(entries_url(event, find="van dam")).content.decode()
    assert "Zoë Van Damme" in found and "Café Sport" in found
    answer = client.post(reverse("ws:player-enter", args=[event.slug]), {"player": player.pk, "find": "van dam"})
    assert answer.status_code == 302 and "find=van+dam" in answer["Location"]
    assert entry_of(event, "Zoë Van Damme").start_number == 23
    again = client.post(reverse("ws:player-enter", args=[event.slug]), {"player": player.pk}, follow=True)
    assert "Zoë Van Damme is entered already" in again.content.decode()
    assert "Zoë Van Damme" not in client.get(entries_url(event, find="van dam")).content.decode().split(
        'id="add"')[1].split("</section>")[0]


def test_a_new_player_with_a_club_or_without(client, event):
    club = ClubFactory(name="Café Sport")
    client.post(reverse("ws:player-new", args=[event.slug]), {"name": "  Mia   Claes ", "club": club.pk})
    client.post(reverse("ws:player-new", args=[event.slug]), {"name": "Nand Pieters", "club": "", "reserve": "1",
                                                              "fixed_table": "3"})
    mia, nand = entry_of(event, "Mia Claes"), entry_of(event, "Nand Pieters")
    assert (mia.player.club, mia.start_number, mia.reserve) == (club, 23, False)
    assert (nand.player.club, nand.start_number, nand.reserve, nand.fixed_table) == (None, 24, True, 3)


def test_a_new_player_without_a_name_is_refused_with_the_form_kept(client, event):
    answer = client.post(reverse("ws:player-new", args=[event.slug]), {"name": " ", "fixed_table": "2"})
    assert answer.status_code == 400
    assert "A name is required." in answer.content.decode()
    assert Entry.objects.filter(tournament=event).count() == 22


def test_start_numbers_change_before_the_first_draw_only(client, event):
    an, bart = entry_of(event, "An Peeters"), entry_of(event, "Bart Claes")
    client.post(reverse("ws:player-numbers", args=[event.slug]), {f"number-{an.pk}": "2", f"number-{bart.pk}": "1",
                                                                  "q": "", "page": "1"})
    assert (entry_of(event, "An Peeters").start_number, entry_of(event, "Bart Claes").start_number) == (2, 1)
    taken = client.post(reverse("ws:player-numbers", args=[event.slug]), {f"number-{an.pk}": "3"}, follow=True)
    assert entry_of(event, "An Peeters").start_number == 2
    assert "Start number 3 is taken already." in taken.content.decode()
    seat_round(event, 1)
    page = client.get(entries_url(event)).content.decode()
    assert "number-{}".format(an.pk) not in page and "start numbers no longer change" in page
    refused = client.post(reverse("ws:player-numbers", args=[event.slug]), {f"number-{an.pk}": "40"}, follow=True)
    assert entry_of(event, "An Peeters").start_number == 2
    assert "A round is drawn already: the start numbers can no longer change." in refused.content.decode()


def test_a_fixed_table_and_a_reserve_flag(client, event):
    an = entry_of(event, "An Peeters")
    client.post(reverse("ws:player-set", args=[event.slug, an.pk]), {"fixed_table": "4", "reserve": ""})
    an.refresh_from_db()
    assert (an.fixed_table, an.reserve) == (4, False)
    client.post(reverse("ws:player-set", args=[event.slug, an.pk]), {"fixed_table": "", "reserve": "1"})
    an.refresh_from_db()
    assert (an.fixed_table, an.reserve) == (None, True)
    page = client.get(entries_url(event)).content.decode()
    assert "21 players entered" in page and "1 reserve" in page


def test_a_player_drawn_once_stays_a_player(client, event):
    seat_round(event, 1)
    an = entry_of(event, "An Peeters")
    page = client.post(reverse("ws:player-set", args=[event.slug, an.pk]), {"reserve": "1"}, follow=True)
    an.refresh_from_db()
    assert not an.reserve
    assert "An Peeters has been drawn to a round already: whether they are a reserve can no longer change." in (
        page.content.decode())
    client.post(reverse("ws:player-set", args=[event.slug, an.pk]), {"fixed_table": "2"})
    an.refresh_from_db()
    assert an.fixed_table == 2  # mobility may change for the next draws


def test_remove_before_round_one_withdraw_after(client, event):
    wim = entry_of(event, "Wim Segers")
    page = client.get(entries_url(event)).content.decode()
    assert reverse("ws:entry-remove", args=[event.slug, wim.pk]) in page
    client.post(reverse("ws:entry-remove", args=[event.slug, wim.pk]), {"q": "wim", "page": "1"})
    assert not Entry.objects.filter(pk=wim.pk).exists()
    seat_round(event, 1)
    an = entry_of(event, "An Peeters")
    page = client.get(entries_url(event)).content.decode()
    assert reverse("ws:entry-withdraw", args=[event.slug, an.pk]) in page
    assert reverse("ws:entry-remove", args=[event.slug, an.pk]) not in page


def test_a_withdrawal_says_what_happens_under_the_events_rule(client, event):
    seat_round(event, 1)
    sit_out = client.get(entries_url(event)).content.decode()
    assert "its other three players sit out those rounds" in sit_out
    Tournament.objects.filter(pk=event.pk).update(withdrawal="reserve")
    none_free = client.get(entries_url(event)).content.decode()
    assert "No reserve is free" in none_free
    client.post(reverse("ws:player-new", args=[event.slug]), {"name": "Xavier Reserve", "reserve": "1"})
    reserve = client.get(entries_url(event)).content.decode()
    assert "The first reserve (by start number) takes the player" in reserve
    an = entry_of(event, "An Peeters")
    done = client.post(reverse("ws:entry-withdraw", args=[event.slug, an.pk]), follow=True).content.decode()
    assert "An Peeters has withdrawn." in done
    assert "Xavier Reserve takes An Peeters" in done
    an.refresh_from_db()
    assert an.withdrawn and an.withdrawn_after_round == 1
    assert entry_of(event, "Xavier Reserve").replaces == an


def test_after_a_cycle_a_withdrawal_only_stops_the_player(client, organizer):
    t = individual_event(8, organizer=organizer, slug="kort", name="Kort")
    for n in (1, 2, 3):
        seat_round(t, n)
    assert "The player is not drawn again" in client.get(entries_url(t)).content.decode()
    assert "sit out those rounds" not in client.get(entries_url(t)).content.decode()


def test_kept_apart_by_start_numbers(client, event):
    answer = client.post(reverse("ws:kept-apart-add", args=[event.slug]), {"a": "1", "b": "5", "reason": "koppel"},
                         follow=True).content.decode()
    assert "An Peeters and Els Janssens will never share a table." in answer
    pair = KeptApart.objects.get(tournament=event)
    assert {pair.player_a.name, pair.player_b.name} == {"An Peeters", "Els Janssens"}
    page = client.get(entries_url(event)).content.decode()
    assert "1. An Peeters × 5. Els Janssens" in page and "(koppel)" in page
    missing = client.post(reverse("ws:kept-apart-add", args=[event.slug]), {"a": "1", "b": "99"}, follow=True)
    assert "No player has start number 99." in missing.content.decode()
    client.post(reverse("ws:kept-apart-remove", args=[event.slug, pair.pk]))
    assert not KeptApart.objects.exists()


def test_another_organizer_gets_404_on_every_action(client, event):
    other = individual_event(4, organizer=UserFactory(username="other"), slug="andere", name="Andere")
    entry = other.entries.first()
    pair = KeptApart.objects.create(tournament=other, player_a=min(other.entries.all()[:2], key=lambda e: e.player_id)
                                    .player, player_b=max(other.entries.all()[:2], key=lambda e: e.player_id).player)
    for url in (reverse("ws:player-enter", args=[other.slug]), reverse("ws:player-new", args=[other.slug]),
                reverse("ws:player-numbers", args=[other.slug]), reverse("ws:player-set", args=[other.slug, entry.pk]),
                reverse("ws:kept-apart-add", args=[other.slug]),
                reverse("ws:kept-apart-remove", args=[other.slug, pair.pk])):
        assert client.post(url, {"name": "X", "player": Player.objects.first().pk, "a": 1, "b": 2}).status_code == 404
    assert client.get(entries_url(other)).status_code == 404
    assert other.entries.count() == 4 and KeptApart.objects.filter(pk=pair.pk).exists()


def test_a_null_character_is_refused_at_the_door(client, event):
    assert client.post(reverse("ws:player-new", args=[event.slug]), {"name": "Mia\x00"}).status_code == 400
    assert client.post(reverse("ws:kept-apart-add", args=[event.slug]),
                       {"a": "1", "b": "2", "reason": "x\x00"}).status_code == 400
    assert client.get(entries_url(event, find="a%00")).status_code == 400
    assert Entry.objects.filter(tournament=event).count() == 22 and not KeptApart.objects.exists()
