"""The draw of individual events: players entered alone, drawn to tables of four (pure Python, no Django).

``draw(DrawInputs) -> DrawResult`` (or ``DrawError(code, params)``). The inputs are everything the draw
depends on, stored with the round so that anyone re-derives it (``python -m
tournaments.pairing.individual.check inputs.json``): start numbers (never database ids), club keys,
constraints, earlier rounds, the server's seed and ``DRAW_VERSION``. All randomness comes from the seed
(SHA-256, ``field.Field.key``/``rng``); every search limit is a count, never a time.

Two formats (docs/individual.md says it for organizers):

- ``tables`` (``tables.py``): a cycle is three rounds at the same table of four, A (the seated scorer,
  seat N) staying: ``A+B v C+D``, ``A+C v B+D``, ``A+D v B+C``. Each cycle's first round draws new tables
  keeping apart, in this order, kept-apart pairs (never together), players who already met, players of one
  club; rounds 2 and 3 are derived from the cycle's earlier rounds.
- ``swiss`` (``swiss.py``): each round, partners within score groups and partnerships paired by combined
  score; a repeated partnership is never drawn, repeated opponents as few as possible.

**Players left over (n = 4t + r, r = 1..3): event-level sit-outs.** r players sit out the round (in
``tables``, the whole cycle: the three rounds of one table are one unit). They are the r players with the
fewest sit-outs in the rounds of ``history``, ties drawn from the seed (each player's lottery number for
the round), so nobody sits out twice before everyone has once among the players entered all along. Tables
of five were set aside: a five-player rotation is five rounds, breaks the three-round cycle the halls time
and print, and leaves one player idle each round anyway. A player who sits out has no partner and no
opponent that round; how they score is the organizer's house rule (the services'). A player entered after
a cycle began sits out its remaining rounds and plays from the next draw of tables.

**Constraints.** A kept-apart pair never shares a table (``constraint_unsatisfiable`` with the pair when
the draw cannot avoid it); a player with ``fixed_table`` is that table's seated scorer, seat N, in every
round (two players fixed to one table: ``fixed_table_taken``).

**The report** (codes and counts, never sentences): ``repeated_partners``, ``repeated_opponents`` and
``opponents_lower_bound`` (``bounds.py``: no draw of these players could have fewer), ``club_conflicts``
and its ``club_conflicts_lower_bound``, ``method`` (``exact`` up to 12 players, ``search`` beyond,
``rotation`` for rounds 2-3 of a cycle), and per format ``cycle_round``, ``repeated_meetings``/
``meetings_lower_bound`` (``tables``) or ``partner_floats``/``table_floats`` (``swiss``).
"""

from .drawing import draw, opponents_lower_bound
from .inputs import (
    DRAW_VERSION,
    DrawError,
    DrawInputs,
    DrawnTable,
    DrawPlayer,
    DrawResult,
    PastRound,
    PastTable,
)

__all__ = [
    "DRAW_VERSION",
    "DrawError",
    "DrawInputs",
    "DrawPlayer",
    "DrawResult",
    "DrawnTable",
    "PastRound",
    "PastTable",
    "draw",
    "opponents_lower_bound",
]
