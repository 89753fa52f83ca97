"""The rules engine of the Manille family: variants, hand scoring, game folding, play checking.

Pure Python; imports nothing from Django. See docs/rules.md for the rules and
the module docstrings for the representation.
"""

from .game import fold_game, fold_match
from .hand import score_hand
from .play import check_play
from .types import (
    Bonus, GameResult, GameSettings, GameState, Hand, HandResult, MatchResult, Penalty, Play, PlayResult,
    RuleViolation, Violation,
)
from .variants import VARIANTS, OptionSpec, PenaltyRule, Rules, Variant, get_variant

__all__ = [
    "VARIANTS", "Bonus", "GameResult", "GameSettings", "GameState", "Hand", "HandResult", "MatchResult",
    "OptionSpec", "Penalty", "PenaltyRule", "Play", "PlayResult", "RuleViolation", "Rules", "Variant",
    "Violation", "check_play", "fold_game", "fold_match", "get_variant", "score_hand",
]
