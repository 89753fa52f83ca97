"""How many examples the long property tests and the schema fuzz draw: an everyday budget, times FUZZ_SCALE.

Their examples are drawn at random on every run (no fixed seed), so each run of the suite tries others and, over
the runs, far more than one run's budget; a failure prints what to paste to replay it. For a deep run, scale every
budget: ``FUZZ_SCALE=5 ./dev test tests/api/test_schema.py tests/tournaments/test_desk_properties.py`` (README,
"The two commands").
"""

import os


def scale() -> float:
    """FUZZ_SCALE from the environment: 1 when unset or empty; a positive number."""
    text = os.environ.get("FUZZ_SCALE", "").strip()
    value = float(text) if text else 1.0
    if not value > 0:
        raise ValueError(f"FUZZ_SCALE must be a positive number, not {text!r}")
    return value


def examples(everyday: int) -> int:
    """The number of examples: the everyday budget times FUZZ_SCALE, at least 1."""
    return max(1, round(everyday * scale()))
