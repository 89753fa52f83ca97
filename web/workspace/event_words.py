"""The workspace's words for an event's entry kind, match length and house rules of individual events: the form's
choices, and each rule said in a sentence where the organizer acts on it (a withdrawal, a sit-out, the clock)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Tournament
from tournaments.services.lengths import length_from

from ..stage_lines import length_words

ENTRY_CHOICES = [
    ("teams", gettext_lazy("Teams of two: fixed pairs play every match together")),
    ("individual", gettext_lazy("Players alone: drawn to tables of four, the partners changing every round")),
]
MATCH_LENGTH_CHOICES = [
    ("best_of", gettext_lazy("Best of: the first side to win most of the games")),
    ("games", gettext_lazy("A number of games, each one played and counted")),
    ("timed", gettext_lazy("Timed: the round clock decides how long a round lasts")),
]
AT_TIME_CHOICES = [
    ("finish", gettext_lazy("The game in play is played to its end")),
    ("stop", gettext_lazy("The game stops after the deal in play and counts by its points")),
]
SIT_OUT_CHOICES = [
    ("nothing", gettext_lazy("Nothing")),
    ("mean", gettext_lazy("The round's mean: the match points, games won and points of the players who played, "
                          "rounded half up")),
    ("fixed", gettext_lazy("A fixed score, given below")),
]
CONFIRMATION_CHOICES = [
    ("off", gettext_lazy("Off: a finished match is final")),
    ("opponents", gettext_lazy("By the opponents: someone of the other side confirms each result on their phone, "
                               "or disputes it and a director settles it")),
]
UNCONFIRMED_CHOICES = [
    ("count", gettext_lazy("Count them in the standings at once")),
    ("wait", gettext_lazy("Wait: the standings, the next round and a knockout's next match wait for them")),
]
WITHDRAWAL_CHOICES = [
    ("reserve", gettext_lazy("A reserve takes the seat for the rest of the cycle")),
    ("sit_out", gettext_lazy("The table stops for the rest of the cycle: its other three players sit out")),
]


def match_length(tournament: Tournament) -> str:
    """The event's match length in a few words ("best of 3", "4 games", "30 minutes a round, the game finished")."""
    return length_words(length_from(None, tournament), individual=True)


def sit_out_rule(tournament: Tournament) -> str:
    """What a player who sits a round out scores, in a sentence."""
    if tournament.sit_out_score == Tournament.SitOutScore.NOTHING:
        return _("A player who sits a round out scores nothing for it.")
    if tournament.sit_out_score == Tournament.SitOutScore.FIXED:
        fixed = tournament.sit_out_fixed or {}
        return _("A player who sits a round out scores %(mp)s match points, %(games)s games won and %(points)s "
                 "points.") % {"mp": fixed.get("match_points", 0), "games": fixed.get("games_won", 0),
                               "points": fixed.get("points_for", 0)}
    return _("A player who sits a round out scores the round's mean: the match points, games won and points of "
             "the players who played it, each rounded half up.")


def withdrawal_rule(tournament: Tournament, *, reserves: int, mid_cycle: bool) -> str:
    """What a withdrawal now does under the event's rule, in a sentence: ``reserves``, the reserves still free;
    ``mid_cycle``: a ``tables`` cycle has rounds still to come (its tables stay together for three rounds)."""
    stands = _("The player is not drawn again; their results so far stand, and a match of theirs in the current "
               "round stays as it is.")
    if not mid_cycle:
        return stands
    if tournament.withdrawal == Tournament.Withdrawal.RESERVE and reserves:
        return _("The first reserve (by start number) takes the player's seat for the rest of the cycle and is "
                 "drawn from then on.") + " " + stands
    rule = _("The player's table stops for the rest of the cycle: its other three players sit out those rounds, "
             "each scoring the event's sit-out rule.")
    if tournament.withdrawal == Tournament.Withdrawal.RESERVE:
        rule = _("No reserve is free: %(rule)s") % {"rule": rule}
    return rule + " " + stands
