"""Clubs: found one (its founder manages it); its players and teams: register, change, retire, delete.

A player or team that has history (a team, an entry, a match) cannot be deleted: it is retired instead,
which keeps every result and standing it appears in and takes it off the lists new teams and entries are
made from. Every refusal is a ``ServiceError`` with a stable code and the field it concerns.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import ProtectedError, Q

from tournaments.models import Club, Player, Team
from tournaments.services.errors import Conflict, ServiceError


def club_create(*, user, **fields) -> Club:
    """Create a club with its managers; ``user`` becomes one of them."""
    managers = fields.pop("managers", None)
    with transaction.atomic():
        club = Club.objects.create(**fields)
        if managers is not None:
            club.managers.set(managers)
        club.managers.add(user)
    return club


def _clean_name(name, field="name") -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise ServiceError("name_missing", field)
    if len(name) > 120:
        raise ServiceError("name_too_long", field, {"maximum": 120})
    return name


def _clean_licence(licence, *, exclude_pk=None) -> str | None:
    licence = "".join(str(licence or "").split())
    if not licence:
        return None
    if len(licence) > 40:
        raise ServiceError("licence_too_long", "licence", {"maximum": 40})
    if Player.objects.filter(licence=licence).exclude(pk=exclude_pk).exists():
        raise ServiceError("licence_taken", "licence", {"licence": licence})
    return licence


def player_create(*, club: Club | None, name: str, licence: str | None = None, retired: bool = False, user=None) -> Player:
    """Register a player in ``club`` (None: a player of no club, for individual events); refuses an empty name and
    a licence another player has (``licence_taken``)."""
    with transaction.atomic():
        return Player.objects.create(club=club, name=_clean_name(name), licence=_clean_licence(licence),
                                     retired=bool(retired))


def player_update(*, player: Player, user=None, **fields) -> Player:
    """Change a player's ``name``, ``licence``, ``retired`` flag or ``club`` (the same checks as ``player_create``)."""
    with transaction.atomic():
        if "club" in fields:
            player.club = fields.pop("club")
        if "name" in fields:
            player.name = _clean_name(fields.pop("name"))
        if "licence" in fields:
            player.licence = _clean_licence(fields.pop("licence"), exclude_pk=player.pk)
        if "retired" in fields:
            player.retired = bool(fields.pop("retired"))
        if fields:
            raise ServiceError("unknown_field", next(iter(fields)), {"reason": "player", "fields": sorted(fields)})
        player.save()
    return player


def player_retire(*, player: Player, retired: bool = True, user=None) -> Player:
    """Retire a player (or bring them back with ``retired=False``): their teams and results stay as they are."""
    return player_update(player=player, retired=retired, user=user)


def player_in_use(*, player: Player) -> bool:
    """Tell whether a player is in a team (and so cannot be deleted, only retired)."""
    return Team.objects.filter(Q(player_1=player) | Q(player_2=player)).exists()


def player_delete(*, player: Player, user=None) -> None:
    """Delete a player who is in no team; refuses (``Conflict`` ``protected``) one who is: retire them instead."""
    try:
        with transaction.atomic():
            if player_in_use(player=player):
                raise ProtectedError("in a team", [])
            player.delete()
    except ProtectedError:
        raise Conflict("protected", None, {"reason": "player", "player": str(player)}) from None


def _team_players(club: Club, player_1: Player, player_2: Player, *, keep=()) -> tuple[Player, Player]:
    for field, player in (("player_1", player_1), ("player_2", player_2)):
        if player is None:
            raise ServiceError("player_missing", field)
        if player.club_id != club.pk:
            raise ServiceError("player_other_club", field, {"player": str(player), "club": str(club)})
        if player.retired and player.pk not in keep:
            raise ServiceError("player_retired", field, {"player": str(player)})
    if player_1.pk == player_2.pk:
        raise ServiceError("same_player", "player_2")
    return player_1, player_2


def _team_name(club: Club, name, *, exclude_pk=None) -> str:
    name = _clean_name(name)
    if Team.objects.filter(club=club, name__iexact=name).exclude(pk=exclude_pk).exists():
        raise ServiceError("team_exists", "name", {"club": str(club), "name": name})
    return name


def team_create(*, club: Club, name: str, player_1: Player, player_2: Player, retired: bool = False,
                user=None) -> Team:
    """Form a team of two players of ``club``; refuses a name the club's teams have, one player twice, a retired one."""
    with transaction.atomic():
        name = _team_name(club, name)
        first, second = _team_players(club, player_1, player_2)
        return Team.objects.create(club=club, name=name, player_1=first, player_2=second, retired=bool(retired))


def team_update(*, team: Team, user=None, **fields) -> Team:
    """Change a team's ``name``, players, ``retired`` flag or ``club`` (the same checks as ``team_create``).

    A retired player may stay in a team they were in; a new player must be active.
    """
    with transaction.atomic():
        moved = "club" in fields and fields["club"].pk != team.club_id
        if "club" in fields:
            team.club = fields.pop("club")
        if "name" in fields or moved:
            team.name = _team_name(team.club, fields.pop("name", team.name), exclude_pk=team.pk)
        if "player_1" in fields or "player_2" in fields or moved:
            keep = {team.player_1_id, team.player_2_id}
            team.player_1, team.player_2 = _team_players(
                team.club, fields.pop("player_1", team.player_1), fields.pop("player_2", team.player_2), keep=keep)
        if "retired" in fields:
            team.retired = bool(fields.pop("retired"))
        if fields:
            raise ServiceError("unknown_field", next(iter(fields)), {"reason": "team", "fields": sorted(fields)})
        team.save()
    return team


def team_retire(*, team: Team, retired: bool = True, user=None) -> Team:
    """Retire a team (or bring it back with ``retired=False``): its entries and results stay as they are."""
    return team_update(team=team, retired=retired, user=user)


def team_in_use(*, team: Team) -> bool:
    """Tell whether a team has entered a tournament (and so cannot be deleted, only retired)."""
    return team.entries.exists() or team.matches_ns.exists() or team.matches_ew.exists()


def team_delete(*, team: Team, user=None) -> None:
    """Delete a team that never entered a tournament; refuses (``Conflict`` ``protected``) one that did."""
    try:
        with transaction.atomic():
            team.delete()
    except ProtectedError:
        raise Conflict("protected", None, {"reason": "team", "team": str(team)}) from None
