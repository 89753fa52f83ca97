"""Table codes: the six letters and digits printed on a table's score sheet that bind a phone without an account to
that one match of one round (``tournaments.access.table_code_state``). Every match gets one when it is made, in an
individual event's draw (``draws``) as in a team event's pairing (``rounds``, ``knockout``)."""

from __future__ import annotations

import secrets

#: The letters of a table code: no 0/O, 1/I/L, 2/Z, 5/S, 8/B that a phone's keyboard or a bad print confuses.
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


def new_table_codes(count: int) -> list[str]:
    """``count`` fresh codes, all different, in a random order."""
    codes: set[str] = set()
    while len(codes) < count:
        codes.add("".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH)))
    return sorted(codes, key=lambda _: secrets.randbelow(1 << 30))
