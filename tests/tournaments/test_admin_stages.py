"""The admin shows an event's stages inline on its tournament (read only: they are added through the services),
and each round's stage."""

import pytest
from django.urls import reverse

from tests.factories import EntryFactory, RoundFactory, TeamFactory, TournamentFactory, UserFactory
from tournaments.services.stages import stage_add

pytestmark = pytest.mark.django_db


def test_the_tournament_page_lists_its_stages_and_each_rounds_stage(admin_client):
    tournament = TournamentFactory(format="swiss", rounds=4)
    for seed in range(1, 9):
        EntryFactory(tournament=tournament, team=TeamFactory(), seed=seed)
    RoundFactory(tournament=tournament, number=1)
    stage_add(tournament=tournament, user=UserFactory(), format="knockout", rounds=2,
              previous_qualification={"kind": "top", "count": 4, "carry": []})
    page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert page.status_code == 200
    stages = page.context["inline_admin_formsets"][1]
    assert stages.opts.model._meta.model_name == "stage"
    rows = [(form.original.number, form.original.format, form.original.status) for form in stages]
    assert rows == [(1, "swiss", "running"), (2, "knockout", "pending")]
    html = page.content.decode()
    assert "top 4" in html and "stage_set" not in html
    assert not stages.has_add_permission and not stages.has_delete_permission


def test_a_form_without_the_stage_checks_the_number_in_the_running_stage():
    """The admin's round form has no stage field: the round joins the running stage before its number is checked,
    so a number taken is a form error, not a database error."""
    from django.core.exceptions import ValidationError

    from tournaments.models import Round

    tournament = TournamentFactory()
    RoundFactory(tournament=tournament, number=1)
    with pytest.raises(ValidationError) as refused:
        Round(tournament=tournament, number=1).full_clean(exclude=["stage"])
    assert "__all__" in refused.value.message_dict
    fresh = Round(tournament=tournament, number=2)
    fresh.full_clean(exclude=["stage"])
    assert fresh.stage.number == 1


def test_a_stages_entrants_are_listed_read_only_with_how_they_came_in(admin_client):
    from tests.factories import UserFactory as Users
    from tournaments.models import Entry, Stage
    from tournaments.services.stages import stage_place_entrant

    tournament = TournamentFactory(format="swiss", rounds=4)
    for seed in range(1, 9):
        EntryFactory(tournament=tournament, team=TeamFactory(), seed=seed)
    organizer = Users(username="marie")
    stage_add(tournament=tournament, user=organizer, format="knockout", rounds=2,
              previous_qualification={"kind": "top", "count": 4, "carry": []})
    entry = Entry.objects.filter(tournament=tournament).order_by("seed").last()
    stage_place_entrant(tournament=tournament, number=2, entry=entry, user=organizer)
    stage = Stage.objects.get(tournament=tournament, number=2)
    page = admin_client.get(reverse("admin:tournaments_stageentrant_changelist") + f"?stage__id__exact={stage.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    assert entry.team.name in html and "placed by hand by marie" in html
    assert not page.context["cl"].model_admin.has_change_permission(page.wsgi_request)
    tournament_page = admin_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    assert f"?stage__id__exact={stage.pk}" in tournament_page.content.decode()
