"""Pairing logic for the three formats: pure Python over plain values, no Django.

``swiss.pair_swiss`` (one global maximum-weight matching), ``round_robin`` (FIDE Berger tables) and
``knockout`` (seeded brackets); ``individual`` draws the individual events' tables of four
(docs/individual.md). The Django side (``tournaments.services.rounds``) loads rows, turns them into the
dataclasses of ``types`` and saves what comes back.
"""

from .types import Pairing, PairingResult, TeamState

__all__ = ["Pairing", "PairingResult", "TeamState"]
