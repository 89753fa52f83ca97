"""The draw's plain values: its inputs and its result, their JSON, and its refusal (codes, never sentences).

The inputs are what a round stores so that anyone can re-derive its draw: start numbers (never database ids),
club keys (only their equality is used), the constraints, the earlier rounds, the seed and the version of the
algorithm. ``from_json`` ignores keys it does not know (the round's page adds the expected result under
``"result"``) and refuses malformed values with ``inputs_invalid`` and the path of the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tournaments.pairing.types import Refusal

#: Bumped whenever the algorithm changes, so that a stored draw is re-derived by the algorithm that made it.
DRAW_VERSION = "1"
FORMATS = ("tables", "swiss")


class DrawError(Refusal):
    """A refusal of the draw: a code and its params (the callers put them in words, in the reader's language)."""


@dataclass(frozen=True)
class DrawPlayer:
    number: int  # the start number
    club: str | None = None  # a club key; None: no club
    fixed_table: int | None = None  # mobility: always the seated scorer (seat N) of that table


@dataclass(frozen=True)
class PastTable:
    """A table of an earlier round; a seat left empty after a withdrawal is None. ``forfeit``: its match was not
    played (the director's desk: players absent), so its four met nobody there (FIDE's Swiss rules, C.04, do not
    count a game lost by an absence as played); the table still stands in its round (a ``tables`` cycle's seats).
    ``sat_out``: players of the table who sat the round out there (the partner of a player absent, or of one who
    withdrew mid-match: scored as a sit-out), counted by the sit-out rotation as a round sat out."""

    table: int
    ns: tuple[int | None, int | None]
    ew: tuple[int | None, int | None]
    forfeit: bool = False
    sat_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class PastRound:
    number: int
    tables: tuple[PastTable, ...]
    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class DrawInputs:
    format: str  # "tables" or "swiss"
    round_number: int  # the round being drawn, 1-based
    players: tuple[DrawPlayer, ...]  # the active players, in start-number order
    seed: str  # drawn by the server; all the draw's randomness comes from it
    history: tuple[PastRound, ...] = ()  # earlier rounds (with players who left since)
    kept_apart: tuple[tuple[int, int], ...] = ()  # pairs that never share a table
    scores: tuple[tuple[int, int, int, int], ...] = ()  # swiss: (number, match points, games won, points for)
    version: str = DRAW_VERSION
    #: tables, rounds 2-3 of a cycle: (player who left, reserve who takes their seat from this round on)
    reserves: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict:
        return {
            "version": self.version,
            "format": self.format,
            "round_number": self.round_number,
            "seed": self.seed,
            "players": [{"number": p.number, "club": p.club, "fixed_table": p.fixed_table} for p in self.players],
            "history": [
                {
                    "number": r.number,
                    "tables": [{"table": t.table, "ns": list(t.ns), "ew": list(t.ew),
                                **({"forfeit": True} if t.forfeit else {}),
                                **({"sat_out": list(t.sat_out)} if t.sat_out else {})} for t in r.tables],
                    "sitting_out": list(r.sitting_out),
                }
                for r in self.history
            ],
            "kept_apart": [list(pair) for pair in self.kept_apart],
            "scores": [list(row) for row in self.scores],
            "reserves": [list(pair) for pair in self.reserves],
        }

    @classmethod
    def from_json(cls, data: Any) -> DrawInputs:
        _require(isinstance(data, dict), "")
        players = tuple(
            DrawPlayer(
                number=_int(_get(p, "number", f"players[{i}]"), f"players[{i}].number"),
                club=_club(p.get("club"), f"players[{i}].club"),
                fixed_table=_opt_int(p.get("fixed_table"), f"players[{i}].fixed_table"),
            )
            for i, p in enumerate(_list(_get(data, "players", ""), "players"))
        )
        history = tuple(
            PastRound(
                number=_int(_get(r, "number", f"history[{i}]"), f"history[{i}].number"),
                tables=tuple(
                    PastTable(
                        table=_int(_get(t, "table", where), f"{where}.table"),
                        ns=_seats(_get(t, "ns", where), f"{where}.ns"),
                        ew=_seats(_get(t, "ew", where), f"{where}.ew"),
                        forfeit=_bool(t.get("forfeit", False), f"{where}.forfeit"),
                        sat_out=_ints(t.get("sat_out", []), f"{where}.sat_out"),
                    )
                    for k, t in enumerate(_list(_get(r, "tables", f"history[{i}]"), f"history[{i}].tables"))
                    for where in [f"history[{i}].tables[{k}]"]
                ),
                sitting_out=_ints(r.get("sitting_out", []), f"history[{i}].sitting_out"),
            )
            for i, r in enumerate(_list(data.get("history", []), "history"))
        )
        return cls(
            format=_str(_get(data, "format", ""), "format"),
            round_number=_int(_get(data, "round_number", ""), "round_number"),
            players=players,
            seed=_str(_get(data, "seed", ""), "seed"),
            history=history,
            kept_apart=_rows(data.get("kept_apart", []), "kept_apart", 2),
            scores=_rows(data.get("scores", []), "scores", 4),
            version=_str(data.get("version", DRAW_VERSION), "version"),
            reserves=_rows(data.get("reserves", []), "reserves", 2),
        )


@dataclass(frozen=True)
class DrawnTable:
    table: int
    ns: tuple[int, int]
    ew: tuple[int, int]
    seats: dict = field(hash=False)  # {"N": n, "S": n, "E": n, "W": n}; N is the seated scorer, ns[0]

    @classmethod
    def of(cls, table: int, ns: tuple[int, int], ew: tuple[int, int]) -> DrawnTable:
        return cls(table, ns, ew, {"N": ns[0], "S": ns[1], "E": ew[0], "W": ew[1]})


@dataclass(frozen=True)
class DrawResult:
    tables: tuple[DrawnTable, ...]
    sitting_out: tuple[int, ...]
    report: dict = field(hash=False)  # codes and counts, never sentences (docs/individual.md lists them)
    version: str = DRAW_VERSION

    def to_json(self) -> dict:
        return {
            "version": self.version,
            "tables": [
                {"table": t.table, "ns": list(t.ns), "ew": list(t.ew), "seats": dict(t.seats)} for t in self.tables
            ],
            "sitting_out": list(self.sitting_out),
            "report": dict(self.report),
        }

    @classmethod
    def from_json(cls, data: Any) -> DrawResult:
        """Read a stored result back (only tables, sitting_out, report and version; seats are re-derived)."""
        _require(isinstance(data, dict), "result")
        tables = []
        for k, t in enumerate(_list(_get(data, "tables", "result"), "result.tables")):
            where = f"result.tables[{k}]"
            ns, ew = _seats(_get(t, "ns", where), f"{where}.ns"), _seats(_get(t, "ew", where), f"{where}.ew")
            _require(None not in ns + ew, where)
            tables.append(DrawnTable.of(_int(_get(t, "table", where), f"{where}.table"), ns, ew))
        report = data.get("report", {})
        _require(isinstance(report, dict), "result.report")
        return cls(tuple(tables), _ints(data.get("sitting_out", []), "result.sitting_out"), dict(report),
                   _str(data.get("version", DRAW_VERSION), "result.version"))


# -- reading JSON strictly -----------------------------------------------------------------------------------

def _require(ok: bool, where: str) -> None:
    if not ok:
        raise DrawError("inputs_invalid", {"field": where})


def _get(data: Any, key: str, where: str) -> Any:
    _require(isinstance(data, dict) and key in data, f"{where}.{key}" if where else key)
    return data[key]


def _int(value: Any, where: str) -> int:
    _require(isinstance(value, int) and not isinstance(value, bool), where)
    return value


def _opt_int(value: Any, where: str) -> int | None:
    return None if value is None else _int(value, where)


def _bool(value: Any, where: str) -> bool:
    _require(isinstance(value, bool), where)
    return value


def _str(value: Any, where: str) -> str:
    _require(isinstance(value, str), where)
    return value


def _club(value: Any, where: str) -> str | None:
    """A club key: a string, or an integer taken as its decimal string (only equality matters)."""
    if value is None or isinstance(value, str):
        return value
    return str(_int(value, where))


def _list(value: Any, where: str) -> list:
    _require(isinstance(value, list | tuple), where)
    return list(value)


def _ints(value: Any, where: str) -> tuple[int, ...]:
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(_list(value, where)))


def _seats(value: Any, where: str) -> tuple[int | None, int | None]:
    seats = _list(value, where)
    _require(len(seats) == 2, where)
    return tuple(_opt_int(v, f"{where}[{i}]") for i, v in enumerate(seats))  # type: ignore[return-value]


def _rows(value: Any, where: str, width: int) -> tuple:
    rows = tuple(_ints(row, f"{where}[{i}]") for i, row in enumerate(_list(value, where)))
    for i, row in enumerate(rows):
        _require(len(row) == width, f"{where}[{i}]")
    return rows
