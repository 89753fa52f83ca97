"""The admin: where club volunteers type results from paper score sheets.

Hands are entered inline on their game, in order, checked by the rules engine as a whole game
before anything is saved; saving goes through the same services as the API, so the admin can
never store a score the engine did not compute. One module a topic: ``base`` (who sees which rows),
``clubs``, ``events`` (tournaments, entries), ``stages`` (a stage's entrants), ``play`` (rounds,
matches), ``sheets`` (a game's score sheet), ``hands`` (a hand and its history), ``records``
(computed rows), ``index`` (the first page), and ``forms`` (the forms they show).
"""

from . import base, clubs, events, hands, index, play, records, sheets, stages  # noqa: F401 (each registers its admins)
from .clubs import ClubAdmin, PlayerAdmin, TeamAdmin, VolunteerUserAdmin  # noqa: F401
from .events import EntryAdmin, ForbiddenPairAdmin, KeptApartAdmin, TournamentAdmin  # noqa: F401
from .hands import HandAdmin  # noqa: F401
from .play import MatchAdmin, RoundAdmin  # noqa: F401
from .records import StandingAdmin, StandingsSnapshotAdmin, TaskRecordAdmin  # noqa: F401
from .sheets import GameAdmin  # noqa: F401
