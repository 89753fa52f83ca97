"""Entries as an organizer keeps them: seeds, removal before the first round, a new team entered at once, forbidden pairs.

Late entries and withdrawals are in ``tournaments.services.rounds`` (they take the pairing's lock), an individual
event's players entered, start numbers and kept-apart pairs in ``tournaments.services.draws``; here also a player
typed by name entered at once, and a player's fixed table and reserve flag. Every function here takes the same
tournament lock, so none of them races a pairing under way.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from tournaments.models import Club, Entry, ForbiddenPair, KeptApart, Player, Round, RoundSeat, Team, Tournament
from tournaments.services.clubs import player_create, team_create
from tournaments.services.draws import entry_add_player
from tournaments.services.errors import Conflict, ServiceError
from tournaments.services.rounds import entry_add_late


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def entry_seeds_set(*, tournament: Tournament, seeds: dict[int, int | None], user=None) -> int:
    """Set the seeds of entries of ``tournament`` (``{entry id: seed or None}``); return how many changed."""
    with transaction.atomic():
        tournament = _locked(tournament)
        entries = Entry.objects.filter(tournament=tournament, pk__in=list(seeds))
        changed = []
        for entry in entries:
            seed = seeds[entry.pk]
            if seed is not None and seed < 1:
                raise ServiceError("seed", "seed", {"value": seed})
            if entry.seed != seed:
                entry.seed = seed
                changed.append(entry)
        Entry.objects.bulk_update(changed, ["seed"])
    return len(changed)


def entry_remove(*, entry: Entry, user=None) -> None:
    """Remove an entry (and the forbidden pairs naming its team) while no round is paired; refuses (``Conflict``) after."""
    with transaction.atomic():
        tournament = _locked(entry.tournament)
        if Round.objects.filter(tournament=tournament).exists():
            raise Conflict("tournament_started", None, {"reason": "remove_entry"})
        if entry.team_id is not None:
            ForbiddenPair.objects.filter(tournament=tournament).filter(
                Q(team_a_id=entry.team_id) | Q(team_b_id=entry.team_id)).delete()
        else:
            KeptApart.objects.filter(tournament=tournament).filter(
                Q(player_a_id=entry.player_id) | Q(player_b_id=entry.player_id)).delete()
        Entry.objects.filter(pk=entry.pk).delete()


def _player(club: Club, player: Player | str, user) -> Player:
    """The player picked, or the club's active player of the name typed, else a new player of ``club`` of that name."""
    if isinstance(player, Player):
        return player  # team_create checks the club and that the player is active
    name = " ".join(str(player).split())
    if not name:
        raise ServiceError("player_missing", "players")
    existing = Player.objects.filter(club=club, name__iexact=name, retired=False).order_by("pk").first()
    return existing or player_create(club=club, name=name, user=user)


def entry_create_with_team(*, tournament: Tournament, club: Club, name: str, player_1: Player | str,
                           player_2: Player | str, seed: int | None = None, user=None) -> Entry:
    """Form a team of ``club`` (its two players picked, or typed: new ones registered) and enter it, all or nothing.

    The team follows ``team_create``'s rules (a name new to the club, two different active players of the club);
    the entry ``entry_add_late``'s.
    """
    with transaction.atomic():
        first, second = _player(club, player_1, user), _player(club, player_2, user)
        team = team_create(club=club, name=name, player_1=first, player_2=second, user=user)
        return entry_add_late(tournament=tournament, team=team, seed=seed, user=user)


def forbidden_pair_add(*, tournament: Tournament, team_a: Team, team_b: Team, reason: str = "",
                       user=None) -> ForbiddenPair:
    """Forbid two entered teams to meet in the tournament's Swiss pairings; refuses the same team twice or a repeat."""
    if team_a.pk == team_b.pk:
        raise ServiceError("same_team", "team_b", {"reason": "forbidden_pair"})
    a, b = sorted((team_a.pk, team_b.pk))
    with transaction.atomic():
        tournament = _locked(tournament)
        if Entry.objects.filter(tournament=tournament, team_id__in=(a, b)).count() != 2:
            raise ServiceError("not_entered", "team_b", {"reason": "forbidden_pair"})
        pair, created = ForbiddenPair.objects.get_or_create(
            tournament=tournament, team_a_id=a, team_b_id=b, defaults={"reason": (reason or "")[:200]})
        if not created:
            raise Conflict("already_forbidden")
    return pair


def forbidden_pair_remove(*, pair: ForbiddenPair, user=None) -> None:
    """Let two teams meet again in later pairings."""
    with transaction.atomic():
        _locked(pair.tournament)
        ForbiddenPair.objects.filter(pk=pair.pk).delete()


# -- individual events: players entered alone ------------------------------------------------------------------

def entry_create_with_player(*, tournament: Tournament, name: str, club: Club | None = None,
                             fixed_table: int | None = None, reserve: bool = False, user=None) -> Entry:
    """Enter a player typed by name in an individual event, all or nothing: the active player of that name in
    ``club`` (no club: among the players of none) if there is one, else a new one (``player_create``); the entry
    follows ``entry_add_player``'s rules (the next start number, a late entry joining at the next draw)."""
    with transaction.atomic():
        clean = " ".join(str(name or "").split())
        existing = (Player.objects.filter(club=club, name__iexact=clean, retired=False).order_by("pk").first()
                    if clean else None)
        player = existing or player_create(club=club, name=clean, user=user)
        return entry_add_player(tournament=tournament, player=player, fixed_table=fixed_table, reserve=reserve,
                                user=user)


def entry_player_set(*, entry: Entry, fixed_table: int | None, reserve: bool, user=None) -> Entry:
    """Change a player's entry: the table they are fixed to (mobility: the next draws seat them there, as its
    seated scorer; None: drawn like anyone) and whether they are a reserve (drawn only to take a leaver's seat).

    The reserve flag changes only while the player has not been drawn to a round: a player seated once is in
    the event's cycles, a reserve who took a seat is a player. Refuses a withdrawn entry.
    """
    with transaction.atomic():
        tournament = _locked(entry.tournament)
        if not tournament.is_individual:
            raise ServiceError("entry_kind", "player", {"reason": "teams"})
        entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(pk=entry.pk)
        if entry.withdrawn:
            raise Conflict("already_withdrawn", None, {"team": entry.player.name})
        if fixed_table is not None and (isinstance(fixed_table, bool) or not isinstance(fixed_table, int)
                                        or fixed_table < 1):
            raise ServiceError("fixed_table", "fixed_table", {"value": fixed_table})
        if bool(reserve) != entry.reserve and RoundSeat.objects.filter(
                round__tournament=tournament, player_id=entry.player_id).exists():
            raise Conflict("tournament_started", "reserve", {"reason": "reserve", "player": entry.player.name})
        entry.fixed_table, entry.reserve = fixed_table, bool(reserve)
        entry.save(update_fields=["fixed_table", "reserve"])
    return entry
