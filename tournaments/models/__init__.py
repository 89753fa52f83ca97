"""The tournament domain's models, by topic: clubs, players, teams (``clubs``); tournaments, stages,
entries (``events``); the pairs kept apart (``apart``); rounds, matches, games, hands (``play``); standings and
task records (``records``).

Every model is re-exported here, so ``from tournaments.models import Hand`` (and the migrations) keep working.
"""

from .clubs import Club, Player, Team
from .events import POINTS_MAX, STAGE_ONE_FIELDS, Entry, Stage, StageEntrant, Tournament
from .apart import ForbiddenPair, KeptApart
from .play import (CORRECTION_REASON_MAX, SEAT_CHOICES, SIDE_CHOICES, Game, Hand, Match, Round, RoundDraw, RoundSeat,
                   RoundSlot)
from .confirmation import PersonalCode, ResultEvent
from .desk import DESK_REASON_MAX, DirectorAction
from .records import Standing, StandingsChange, StandingsSnapshot, TaskRecord

__all__ = [
    "CORRECTION_REASON_MAX", "DESK_REASON_MAX", "POINTS_MAX", "SEAT_CHOICES", "SIDE_CHOICES", "STAGE_ONE_FIELDS",
    "Club", "DirectorAction", "Entry", "ForbiddenPair", "Game", "Hand", "KeptApart", "Match", "PersonalCode", "Player",
    "ResultEvent", "Round", "RoundDraw", "RoundSeat", "RoundSlot", "Stage", "StageEntrant", "Standing",
    "StandingsChange", "StandingsSnapshot", "TaskRecord", "Team", "Tournament",
]
