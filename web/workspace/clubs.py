"""A club's managers' pages: the players and teams (create, edit, retire, delete), import and export.

Every page 404s unless the signed-in user manages the club (``managed_club_or_404``: unscoped staff too), and
a player or team of another club is a 404 as well. Writes go through ``tournaments.services.clubs``, the same
functions the API calls.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.models import Player, Team
from tournaments.query_text import search_text
from tournaments.selectors.clubs import club_counts, club_player_choices, club_players, club_teams
from tournaments.services.club_import import COLUMNS, KINDS, club_rows_import, service_message
from tournaments.services.clubs import (
    player_create, player_delete, player_in_use, player_retire, player_update, team_create, team_delete,
    team_in_use, team_retire, team_update,
)
from tournaments.services.errors import ServiceError

from . import imports
from .common import managed_club_or_404

PAGE_SIZE = 25


# --------------------------------------------------------------------------- forms


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    licence = forms.CharField(label=gettext_lazy("Federation licence"), max_length=40, required=False,
                              help_text=gettext_lazy("Optional; unique across all clubs."))


class TeamForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Team name"), max_length=120)
    player_1 = forms.ModelChoiceField(label=gettext_lazy("Player 1"), queryset=Player.objects.none())
    player_2 = forms.ModelChoiceField(label=gettext_lazy("Player 2"), queryset=Player.objects.none())

    def __init__(self, *args, club, team=None, **kwargs):
        super().__init__(*args, **kwargs)
        keep = (team.player_1_id, team.player_2_id) if team else ()
        choices = club_player_choices(club_id=club.pk, keep=keep)
        for name in ("player_1", "player_2"):
            self.fields[name].queryset = choices
            self.fields[name].empty_label = _("Choose a player")

    def clean(self):
        data = super().clean()
        if data.get("player_1") and data.get("player_1") == data.get("player_2"):
            self.add_error("player_2", _("A team's two players must be two different people."))
        return data


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file or xlsx spreadsheet"))


def _service_error(form, exc: ServiceError) -> None:
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, service_message(exc))


# --------------------------------------------------------------------------- lists


def _list_context(request, club, tab: str, queryset_of) -> dict:
    q = search_text(request.GET)
    retired = request.GET.get("retired") == "1"
    page = Paginator(queryset_of(club_id=club.pk, q=q, retired=retired), PAGE_SIZE).get_page(request.GET.get("page"))
    return {"club": club, "tab": tab, "q": q, "retired": retired, "page": page,
            "counts": club_counts(club_id=club.pk)}


@login_required
def club(request, club_id: int):
    """The club's players, searched and paginated (``?retired=1``: the retired ones)."""
    club = managed_club_or_404(request.user, club_id)
    return render(request, "web/workspace/clubs/players.html", _list_context(request, club, "players", club_players))


@login_required
def club_teams_page(request, club_id: int):
    """The club's teams, searched and paginated (``?retired=1``: the retired ones)."""
    club = managed_club_or_404(request.user, club_id)
    return render(request, "web/workspace/clubs/teams.html", _list_context(request, club, "teams", club_teams))


# --------------------------------------------------------------------------- players


def _player_or_404(club, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, club=club)


@login_required
def player_new(request, club_id: int):
    """Register a player in the club."""
    club = managed_club_or_404(request.user, club_id)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = player_create(club=club, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _service_error(form, exc)
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": player.name})
            if "another" in request.POST:
                return redirect("ws:club-player-new", club_id=club.pk)
            return redirect("ws:club", club_id=club.pk)
    return render(request, "web/workspace/clubs/player_form.html", {"club": club, "form": form, "player": None})


@login_required
def player_edit(request, club_id: int, player_id: int):
    """Change a player's name or licence; retire them, bring them back, or delete one who is in no team."""
    club = managed_club_or_404(request.user, club_id)
    player = _player_or_404(club, player_id)
    form = PlayerForm(request.POST or None, initial={"name": player.name, "licence": player.licence or ""})
    if request.method == "POST" and form.is_valid():
        try:
            player_update(player=player, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _service_error(form, exc)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": player.name})
            return redirect("ws:club", club_id=club.pk)
    teams = Team.objects.filter(Q(player_1=player) | Q(player_2=player))
    return render(request, "web/workspace/clubs/player_form.html", {
        "club": club, "form": form, "player": player, "teams": teams.order_by("name"),
        "deletable": not player_in_use(player=player)})


@login_required
@require_POST
def player_retire_view(request, club_id: int, player_id: int):
    """Retire a player (``retired=0``: bring them back)."""
    club = managed_club_or_404(request.user, club_id)
    player = player_retire(player=_player_or_404(club, player_id), retired=request.POST.get("retired") != "0",
                           user=request.user)
    if player.retired:
        messages.success(request, _("%(name)s is retired: kept in the results, no longer offered for new teams.")
                         % {"name": player.name})
        return redirect("ws:club", club_id=club.pk)
    messages.success(request, _("%(name)s is back.") % {"name": player.name})
    return redirect(f"{_url('ws:club', club)}?retired=1")


@login_required
@require_POST
def player_delete_view(request, club_id: int, player_id: int):
    """Delete a player who is in no team; one who is gets a message to retire them instead."""
    club = managed_club_or_404(request.user, club_id)
    player = _player_or_404(club, player_id)
    try:
        player_delete(player=player, user=request.user)
    except ServiceError:
        messages.error(request, _("%(name)s is in a team and cannot be deleted: retire them instead.")
                       % {"name": player.name})
        return redirect("ws:club-player", club_id=club.pk, player_id=player.pk)
    messages.success(request, _("%(name)s is deleted.") % {"name": player.name})
    return redirect("ws:club", club_id=club.pk)


# --------------------------------------------------------------------------- teams


def _team_or_404(club, team_id: int) -> Team:
    return get_object_or_404(Team.objects.select_related("club", "player_1", "player_2"), pk=team_id, club=club)


@login_required
def team_new(request, club_id: int):
    """Form a team of two of the club's active players."""
    club = managed_club_or_404(request.user, club_id)
    form = TeamForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            team = team_create(club=club, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _service_error(form, exc)
        else:
            messages.success(request, _("%(name)s is formed.") % {"name": team.name})
            if "another" in request.POST:
                return redirect("ws:club-team-new", club_id=club.pk)
            return redirect("ws:club-teams", club_id=club.pk)
    return render(request, "web/workspace/clubs/team_form.html", {
        "club": club, "form": form, "team": None,
        "player_count": club_counts(club_id=club.pk)["players"]["active"]})


@login_required
def team_edit(request, club_id: int, team_id: int):
    """Rename a team or change its players; retire it, bring it back, or delete one that never entered."""
    club = managed_club_or_404(request.user, club_id)
    team = _team_or_404(club, team_id)
    form = TeamForm(request.POST or None, club=club, team=team,
                    initial={"name": team.name, "player_1": team.player_1_id, "player_2": team.player_2_id})
    if request.method == "POST" and form.is_valid():
        try:
            team_update(team=team, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            _service_error(form, exc)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": team.name})
            return redirect("ws:club-teams", club_id=club.pk)
    return render(request, "web/workspace/clubs/team_form.html", {
        "club": club, "form": form, "team": team, "entry_count": team.entries.count(),
        "deletable": not team_in_use(team=team)})


@login_required
@require_POST
def team_retire_view(request, club_id: int, team_id: int):
    """Retire a team (``retired=0``: bring it back)."""
    club = managed_club_or_404(request.user, club_id)
    team = team_retire(team=_team_or_404(club, team_id), retired=request.POST.get("retired") != "0",
                       user=request.user)
    if team.retired:
        messages.success(request, _("%(name)s is retired: kept in the results, no longer offered for new entries.")
                         % {"name": team.name})
        return redirect("ws:club-teams", club_id=club.pk)
    messages.success(request, _("%(name)s is back.") % {"name": team.name})
    return redirect(f"{_url('ws:club-teams', club)}?retired=1")


@login_required
@require_POST
def team_delete_view(request, club_id: int, team_id: int):
    """Delete a team that never entered a tournament; one that did gets a message to retire it instead."""
    club = managed_club_or_404(request.user, club_id)
    team = _team_or_404(club, team_id)
    try:
        team_delete(team=team, user=request.user)
    except ServiceError:
        messages.error(request, _("%(name)s has entered a tournament and cannot be deleted: retire it instead.")
                       % {"name": team.name})
        return redirect("ws:club-team", club_id=club.pk, team_id=team.pk)
    messages.success(request, _("%(name)s is deleted.") % {"name": team.name})
    return redirect("ws:club-teams", club_id=club.pk)


def _url(name, club):
    return reverse(name, kwargs={"club_id": club.pk})


# --------------------------------------------------------------------------- import and export


@login_required
def club_import(request, club_id: int):
    """Upload a file and see what it would do; confirm to import it whole (nothing at all if a line is wrong)."""
    club = managed_club_or_404(request.user, club_id)
    context = {"club": club, "tab": "import", "max_kb": imports.max_bytes() // 1000, "max_rows": imports.max_rows()}
    form, token_error = ImportForm(), None
    if request.method == "POST" and "token" in request.POST:
        try:
            table = imports.Table.unsign(request.POST["token"], club_id=club.pk, user_id=request.user.pk)
        except imports.ImportFileError as exc:
            token_error = str(exc)
        else:
            preview = club_rows_import(club=club, user=request.user, table=table, commit=True)
            if preview.ok:
                kind = _("players") if table.kind == "players" else _("teams")
                messages.success(request, _("Imported %(kind)s: %(new)s created, %(updated)s updated, "
                                            "%(same)s unchanged.") % {
                    "kind": kind, "new": preview.created, "updated": preview.updated, "same": preview.unchanged})
                return redirect("ws:club-teams" if table.kind == "teams" else "ws:club", club_id=club.pk)
            messages.error(request, _("The data changed since the preview: nothing was stored. "
                                      "Check the lines below."))
            return _preview(request, context, preview, club)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                table = imports.read_upload(form.cleaned_data["file"])
            except imports.ImportFileError as exc:
                form.add_error("file", str(exc))
            else:
                preview = club_rows_import(club=club, user=request.user, table=table, commit=False)
                return _preview(request, context, preview, club)
    return render(request, "web/workspace/clubs/import.html", {**context, "form": form, "token_error": token_error},
                  status=400 if form.errors or token_error else 200)


def _preview(request, context, preview, club):
    token = preview.table.sign(club_id=club.pk, user_id=request.user.pk) if preview.ok else ""
    columns = [c for c in COLUMNS[preview.table.kind] if c in preview.table.headers]
    rows = [{"line": r.line, "action": r.action, "errors": r.errors,
             "cells": [(r.values.get(c, ""), r.was.get(c)) for c in columns]} for r in preview.rows]
    return render(request, "web/workspace/clubs/import_preview.html", {
        **context, "preview": preview, "token": token, "columns": columns, "rows": rows})


@login_required
def club_export(request, club_id: int, kind: str, fmt: str):
    """Download every player or team of the club (retired ones too) as CSV or xlsx, in the import's format."""
    club = managed_club_or_404(request.user, club_id)
    if kind not in KINDS or fmt not in ("csv", "xlsx"):
        raise Http404
    if fmt == "csv":
        body, content_type = imports.export_csv(club=club, kind=kind), "text/csv; charset=utf-8"
    else:
        body = imports.export_xlsx(club=club, kind=kind)
        content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    response = HttpResponse(body, content_type=content_type)
    filename = f"club-{club.pk}-{kind}.{fmt}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
