"""The organizer's stages (web/workspace/organize_stages.py): the templates, a stage added, the qualifiers seen
before closing, closing, starting, reopening, editing and placing by hand through the services; the refusals in
words."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.stage_pages import roeselare_event, teams_for
from tests.web.workspace.individual import individual_event
from tests.factories import TournamentFactory
from tournaments.models import Stage, StageEntrant

pytestmark = pytest.mark.django_db


def organizer_of(tournament):
    user = tournament.organizers.first() or UserFactory(username="orga")
    tournament.organizers.add(user)
    return user


def test_pools_then_a_knockout_from_the_template(client):
    tournament = TournamentFactory(name="Roeselare duo", slug="roeselare", format="swiss", rounds=3, best_of=3)
    teams_for(tournament, 60)
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert "Pools, then a knockout" in page and "60 teams in the field." in page
    answer = client.post(reverse("ws:stage-template", args=[tournament.slug]),
                         {"pools": 15, "per_pool": 1, "best_next": 1, "best_of": 3})
    assert answer.status_code == 302
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    assert [(s.format, s.pools, s.rounds) for s in stages] == [("pools", 15, 3), ("knockout", 0, 4)]
    assert (stages[0].rule, stages[0].rule_per_pool, stages[0].rule_best_next) == ("pools", 1, 1)
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert "The first 1 of each pool go on, with the best 1 of place 2 across the pools." in page
    assert "From a template" not in page  # once there are stages, one at a time
    assert reverse("ws:export-ranking", args=[tournament.slug]) in page


def test_a_template_refused_keeps_nothing_and_says_why(client):
    tournament = TournamentFactory(name="Klein", slug="klein", format="swiss", rounds=3)
    teams_for(tournament, 8)
    client.force_login(organizer_of(tournament))
    answer = client.post(reverse("ws:stage-template", args=[tournament.slug]),
                         {"pools": 6, "per_pool": 1, "best_next": 0})
    assert answer.status_code == 400
    assert "8 entrants make 1 to 4 pools of two or more, not 6." in answer.content.decode()
    assert 'role="alert"' in answer.content.decode()
    tournament.refresh_from_db()
    assert tournament.format == "swiss" and Stage.objects.filter(tournament=tournament).count() == 1


def test_qualification_semi_final_final_for_individuals(client):
    tournament = individual_event(44, name="BK individueel", slug="bk-individueel", rounds=3)
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert "Qualification, semi-final, final" in page
    answer = client.post(reverse("ws:stage-template", args=[tournament.slug]),
                         {"to_semi": 16, "semi_rounds": 3, "final_rounds": 3})
    assert answer.status_code == 302
    stages = list(Stage.objects.filter(tournament=tournament).order_by("number"))
    assert [(s.format, s.rule, s.rule_count) for s in stages] == [("tables", "top", 16), ("tables", "table_winners", 0),
                                                                 ("tables", "", 0)]
    answer = client.post(reverse("ws:stage-new", args=[tournament.slug]),
                         {"format": "tables", "rounds": 3, "rule": "top", "count": 40})
    assert answer.status_code == 400
    assert "A stage of 4 entrants sends on 1 to 4 of them, not 40" in answer.content.decode(), answer.content.decode()[-3000:]


def test_the_qualifiers_seen_before_closing_are_the_ones_closing_stores(client):
    tournament = roeselare_event(close_pools=False)
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("ws:stages", args=[tournament.slug]) + "?qualifiers=1").content.decode()
    assert "Closing now sends 16 on to stage 2:" in page
    # Each qualifier's place said as the public page says it (its number, its pool).
    assert page.count("Place 1 in pool ") == 15 and page.count("One of the best of place 2 across the pools") == 1
    assert "(seed 1: Place 1 in pool 1)" in page
    # Nothing was stored by looking.
    assert Stage.objects.get(tournament=tournament, number=1).status == "running"
    assert not StageEntrant.objects.filter(stage__tournament=tournament, stage__number=2).exists()
    shown = page[page.index("Closing now sends"):]
    answer = client.post(reverse("ws:stage-close", args=[tournament.slug, 1]))
    assert answer.status_code == 302
    stored = [e.entry.team.name for e in StageEntrant.objects.filter(stage__tournament=tournament, stage__number=2)
              .select_related("entry__team").order_by("seed")]
    assert len(stored) == 16
    entrants = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert entrants.count("Place 1 in pool ") == 15 and "(seed 1: Place 1 in pool 1)" in entrants
    positions = [shown.index(name) for name in stored]
    assert positions == sorted(positions)  # the same teams, in the same seeds
    # Start the knockout; reopening stage 1 is possible until the knockout has a result.
    assert client.post(reverse("ws:stage-start", args=[tournament.slug, 2])).status_code == 302
    assert Stage.objects.get(tournament=tournament, number=2).status == "running"
    answer = client.post(reverse("ws:stage-reopen", args=[tournament.slug, 1]))
    assert answer.status_code == 302
    assert Stage.objects.get(tournament=tournament, number=1).status == "running"


def test_closing_an_unplayed_stage_is_refused_in_words(client):
    tournament = roeselare_event(pools_rounds_played=0)
    tournament.status = "running"  # started, no round paired yet
    tournament.save()
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("ws:stages", args=[tournament.slug]) + "?qualifiers=1")
    assert "Stage 1 has no finished round yet: there is nothing to close." in page.content.decode()
    answer = client.post(reverse("ws:stage-start", args=[tournament.slug, 2]))
    assert answer.status_code == 409
    assert "Stage 1 is not closed yet: a stage starts once the one before it is closed." in answer.content.decode()


def test_edit_a_pending_stage_and_place_an_entrant_by_hand(client):
    tournament = roeselare_event(start_knockout=False)
    user = organizer_of(tournament)
    client.force_login(user)
    assert client.post(reverse("ws:stage-edit", args=[tournament.slug, 2]), {"best_of": 5}).status_code == 302
    assert Stage.objects.get(tournament=tournament, number=2).best_of == 5
    outsider = (tournament.entries.exclude(pk__in=StageEntrant.objects.filter(stage__number=2).values("entry"))
                .select_related("team").first())
    answer = client.post(reverse("ws:stage-place", args=[tournament.slug, 2]), {"entry": outsider.pk, "seed": 16})
    assert answer.status_code == 302
    placed = StageEntrant.objects.get(stage__tournament=tournament, stage__number=2, entry=outsider)
    assert placed.placed_by_hand and placed.seed == 16 and placed.placed_by == user
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert "17 entrants" in page and "Placed by the organizers" in page
    again = client.post(reverse("ws:stage-place", args=[tournament.slug, 2]), {"entry": outsider.pk})
    assert again.status_code == 409


def test_a_knockouts_third_place_and_tie_break_deals_from_the_template_and_the_stage_form(client):
    tournament = TournamentFactory(name="Roeselare duo", slug="roeselare", format="swiss", rounds=3, best_of=3)
    teams_for(tournament, 16)
    client.force_login(organizer_of(tournament))
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert "The semi-finals' losers play for third place" in page
    answer = client.post(reverse("ws:stage-template", args=[tournament.slug]),
                         {"pools": 4, "per_pool": 2, "best_next": 0, "best_of": 3, "third_place": "1",
                          "tiebreak_deals": "2"})
    assert answer.status_code == 302
    knockout = Stage.objects.get(tournament=tournament, number=2)
    assert (knockout.format, knockout.third_place, knockout.tiebreak_deals) == ("knockout", True, 2)
    page = client.get(reverse("ws:stages", args=[tournament.slug])).content.decode()
    assert "a match for third place" in page and "a level match plays a tie-break of 2 deals" in page
    # The stage's form: the box left unticked and the deals left empty take both away.
    answer = client.post(reverse("ws:stage-edit", args=[tournament.slug, 2]), {"knockout": "1", "tiebreak_deals": ""})
    assert answer.status_code == 302
    knockout.refresh_from_db()
    assert (knockout.third_place, knockout.tiebreak_deals) == (False, None)
    answer = client.post(reverse("ws:stage-edit", args=[tournament.slug, 2]), {"knockout": "1", "third_place": "1",
                                                                              "tiebreak_deals": "17"})
    assert answer.status_code == 400  # more than 16 deals: refused in words, nothing changed
    knockout.refresh_from_db()
    assert (knockout.third_place, knockout.tiebreak_deals) == (False, None)
