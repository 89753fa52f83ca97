"""The one place the API imports the rules engine from."""

try:
    from scoring import (  # noqa: F401
        VARIANTS, GameState, Hand, RuleViolation, Violation, check_play, get_variant, score_hand,
    )
except ImportError:  # the package root is being written; fall back to its modules meanwhile
    from scoring.hand import score_hand  # noqa: F401
    from scoring.play import check_play  # noqa: F401
    from scoring.types import GameState, Hand, RuleViolation, Violation  # noqa: F401
    from scoring.variants import VARIANTS, get_variant  # noqa: F401
