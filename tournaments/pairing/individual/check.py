"""Re-derive a round's draw from its published inputs, with no database and no Django.

    python -m tournaments.pairing.individual.check inputs.json [--json]
    python -m tournaments.pairing.individual.check - < inputs.json

The file is the round's inputs as its page offers them (``DrawInputs.to_json``), with the draw that was
published under ``"result"`` (optional; ``{"inputs": ..., "result": ...}`` is read too). The script prints
the draw it derives (tables, seats, sit-outs, the report's counts) and, when a result is given, whether the
two are the same draw: the same players at the same seats of the same tables and the same sit-outs.

Exit status: 0 the same draw (or nothing to compare), 1 a different draw, 2 the inputs could not be read
or the draw refuses them (the refusal's code and params are printed).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .drawing import draw
from .inputs import DrawError, DrawInputs, DrawResult


def same_draw(derived: DrawResult, published: DrawResult) -> list[str]:
    """The differences between two draws (empty: the same draw); the report's counts are not compared."""
    differences = []
    mine = {t.table: (t.ns, t.ew) for t in derived.tables}
    theirs = {t.table: (t.ns, t.ew) for t in published.tables}
    for table in sorted(set(mine) | set(theirs)):
        if mine.get(table) != theirs.get(table):
            differences.append(f"table {table}: derived {_side(mine.get(table))}, published {_side(theirs.get(table))}")
    if sorted(derived.sitting_out) != sorted(published.sitting_out):
        differences.append(f"sitting out: derived {sorted(derived.sitting_out)}, "
                           f"published {sorted(published.sitting_out)}")
    return differences


def _side(seats: tuple | None) -> str:
    if seats is None:
        return "none"
    (n, s), (e, w) = seats
    return f"N {n} S {s} v E {e} W {w}"


def describe(inputs: DrawInputs, result: DrawResult) -> str:
    header = (f"format {inputs.format}, round {inputs.round_number}, version {inputs.version}, "
              f"seed {inputs.seed!r}, {len(inputs.players)} players")
    lines = [header]
    for table in result.tables:
        lines.append(f"table {table.table:4d}: {_side((table.ns, table.ew))}")
    lines.append(f"sitting out: {', '.join(str(p) for p in result.sitting_out) or 'nobody'}")
    lines.append("report: " + ", ".join(f"{k} {v}" for k, v in result.report.items()))
    return "\n".join(lines)


def split(data: Any) -> tuple[Any, Any]:
    """The inputs and the published result (or None) of a page's JSON."""
    if isinstance(data, dict) and "inputs" in data:
        return data["inputs"], data.get("result")
    if isinstance(data, dict):
        return data, data.get("result")
    return data, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tournaments.pairing.individual.check",
                                     description="Re-derive an individual event's draw from its inputs.")
    parser.add_argument("path", help="the inputs' JSON file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the derived draw as JSON")
    args = parser.parse_args(argv)
    try:
        if args.path == "-":
            text = sys.stdin.read()
        else:
            with open(args.path, encoding="utf-8") as source:
                text = source.read()
        raw_inputs, raw_result = split(json.loads(text))
        inputs = DrawInputs.from_json(raw_inputs)
        published = None if raw_result is None else DrawResult.from_json(raw_result)
        derived = draw(inputs)
    except (OSError, ValueError) as error:  # DrawError and json's errors are ValueErrors
        if isinstance(error, DrawError):
            print(f"refused: {error.code} {json.dumps(error.params, sort_keys=True)}")
        else:
            print(f"could not read the inputs: {error}")
        return 2
    print(json.dumps(derived.to_json(), indent=2) if args.json else describe(inputs, derived))
    if published is None:
        print("no published draw to compare")
        return 0
    differences = same_draw(derived, published)
    if differences:
        print("DIFFERENT from the published draw:")
        print("\n".join(f"  {line}" for line in differences))
        return 1
    print("the same draw as the published one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
