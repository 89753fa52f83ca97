"""The one place the API imports the rules engine from."""

from scoring import (  # noqa: F401
    VARIANTS, GameState, Hand, RuleViolation, Violation, check_play, get_variant, score_hand,
)
