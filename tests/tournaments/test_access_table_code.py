"""A table's code: it binds a phone without an account to one match of one round, from the round's draw until
30 minutes after the match's result (tournaments.access.table_code_state, table_code_match)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import MatchFactory
from tests.web.workspace.individual import individual_event, seat_round
from tournaments import access
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    tournament = individual_event(8, minutes=None)
    seat_round(tournament, 1, codes=["ACD347", "KMN679"])
    return tournament


def test_a_code_binds_to_its_match_only(event):
    one, two = Match.objects.filter(round__tournament=event).order_by("table")
    assert access.table_code_state(one, "ACD347") == access.CODE_VALID
    assert access.table_code_state(two, "ACD347") == access.CODE_UNKNOWN
    assert access.table_code_match(event.pk, "ACD347") == (one, access.CODE_VALID)
    assert access.table_code_match(event.pk, "KMN679") == (two, access.CODE_VALID)
    assert access.table_code_match(event.pk, "KMN67") == (None, access.CODE_UNKNOWN)


def test_a_code_is_read_as_typed_on_a_phone(event):
    one = Match.objects.get(round__tournament=event, table=1)
    assert access.table_code_clean(" acd-347 ") == "ACD347"
    assert access.table_code_match(event.pk, "acd 347")[0] == one


def test_a_code_of_another_tournament_binds_to_nothing(event):
    other = individual_event(4, name="Andere", slug="andere", minutes=None)
    seat_round(other, 1, codes=["QRT999"])
    assert access.table_code_match(event.pk, "QRT999") == (None, access.CODE_UNKNOWN)
    assert access.table_code_match(other.pk, "ACD347") == (None, access.CODE_UNKNOWN)


def test_a_team_match_has_no_code_and_an_empty_code_opens_nothing(event):
    match = MatchFactory()
    assert access.table_code_state(match, "") == access.CODE_UNKNOWN
    assert access.table_code_match(match.round.tournament_id, "") == (None, access.CODE_UNKNOWN)


def test_a_code_works_until_thirty_minutes_after_the_result(event):
    one = Match.objects.get(round__tournament=event, table=1)
    Match.objects.filter(pk=one.pk).update(status=Match.Status.FINISHED)
    one.refresh_from_db()
    result = one.updated_at
    assert access.table_code_state(one, "ACD347", now=result + timedelta(minutes=29)) == access.CODE_VALID
    assert access.table_code_state(one, "ACD347", now=result + timedelta(minutes=31)) == access.CODE_EXPIRED
    assert access.table_code_match(event.pk, "ACD347", now=result + timedelta(minutes=31)) == (
        one, access.CODE_EXPIRED)


def test_an_unfinished_match_keeps_its_code_however_long_it_lasts(event):
    one = Match.objects.get(round__tournament=event, table=1)
    assert access.table_code_state(one, "ACD347", now=timezone.now() + timedelta(hours=6)) == access.CODE_VALID


def test_a_redraw_voids_the_old_sheets_codes(event):
    """A redraw makes new matches with new codes: the printed code of the first draw binds to nothing."""
    rnd = event.round_set.get(number=1)
    Match.objects.filter(round=rnd).delete()
    Match.objects.create(round=rnd, table=1, table_code="NEW777")
    assert access.table_code_match(event.pk, "ACD347") == (None, access.CODE_UNKNOWN)


def test_two_rounds_sharing_a_code_by_chance_open_the_one_still_valid(event):
    seat_round(event, 2, codes=["ACD347", "PQR444"])
    later = Match.objects.get(round__tournament=event, round__number=2, table=1)
    earlier = Match.objects.get(round__tournament=event, round__number=1, table=1)
    assert access.table_code_match(event.pk, "ACD347")[0] == later
    Match.objects.filter(pk=later.pk).update(status=Match.Status.FINISHED,
                                             updated_at=timezone.now() - timedelta(hours=1))
    assert access.table_code_match(event.pk, "ACD347") == (earlier, access.CODE_VALID)


def test_a_round_not_yet_published_opens_no_table_by_its_code(event):
    """Issue 28: its sheets may be printed, but its codes open nothing before the organizer publishes it."""
    from tournaments.models import Round
    from tournaments.services.publication import round_publish

    one = Match.objects.get(round__tournament=event, table=1)
    Round.objects.filter(pk=one.round_id).update(published_at=None)
    one = Match.objects.select_related("round").get(pk=one.pk)
    assert access.table_code_state(one, "ACD347") == access.CODE_UNKNOWN
    assert access.table_code_match(event.pk, "ACD347") == (None, access.CODE_UNKNOWN)
    round_publish(round=one.round)
    assert access.table_code_match(event.pk, "ACD347") == (one, access.CODE_VALID)
