"""docs/refusals.md, made from the code: every refusal code, where it arises, its params, status and words.

The codes, their reasons and their params are read from the source (``ast``): the rules engine's
``Violation``/``bad`` calls, the services' ``ServiceError``/``Conflict`` raises, a failed task's recorded
``{"code": ...}``, ``refusals.words``/``validation_error`` calls. tests/tournaments/test_refusals.py checks
that each has words (``tournaments.refusals.SENTENCES``) and that docs/refusals.md is what ``markdown()``
writes; after a change, write it again with ``python -m tournaments.refusal_catalogue > docs/refusals.md``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"scoring": "engine", "tournaments": "service", "web": "workspace", "api": "api"}
#: A refusal class and its HTTP status (tournaments/services/errors.py, services/rounds.py).
CLASSES = {"ServiceError": 400, "Conflict": 409, "IdempotencyKeyMismatch": 422, "PairingImpossible": 400,
           "InvalidFields": 400, "DrawError": 400, "StageError": 400, "Forbidden": 403, "TooMany": 429}
#: Refusal classes whose params are their second argument (the pure draw's ``DrawError(code, params)``, the
#: stages' ``StageError(code, params)``).
PARAMS_SECOND = {"DrawError", "StageError"}


@dataclass
class Found:
    """What the source says of one code: where it is raised, with which statuses, reasons and params."""

    where: set = field(default_factory=set)
    statuses: set = field(default_factory=set)
    params: dict = field(default_factory=dict)  # reason (None: none) -> the params raised with it
    files: set = field(default_factory=set)

    @property
    def reasons(self) -> set:
        return set(self.params) - {None}


def _const(node) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _dict_keys(node) -> tuple[set, str | None]:
    """The constant keys of a dict literal and its constant "reason"."""
    if not isinstance(node, ast.Dict):
        return set(), None
    keys, reason = set(), None
    for key, value in zip(node.keys, node.values):
        name = _const(key) if key is not None else None
        if name:
            keys.add(name)
            if name == "reason":
                reason = _const(value)
    return keys, reason


def _name(func) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


class _Scanner(ast.NodeVisitor):
    def __init__(self, found: dict, path: Path):
        self.found, self.path = found, path
        self.where = FOLDERS[path.relative_to(ROOT).parts[0]]
        self.model = path.relative_to(ROOT).as_posix().startswith("tournaments/models/")
        self.play_codes: set = set()
        self.dynamic_params: set = set()
        self.status = None

    def add(self, code, *, status=400, reason=None, params=(), where=None):
        item = self.found.setdefault(code, Found())
        item.where.add(where or self.where)
        if status:
            item.statuses.add(status)
        item.params.setdefault(reason, set()).update(set(params) - {"reason"})
        item.files.add(str(self.path.relative_to(ROOT)))

    def visit_ClassDef(self, node):
        outer = self.status
        for statement in node.body:
            if (isinstance(statement, ast.Assign) and _name(statement.targets[0]) == "status"
                    and isinstance(statement.value, ast.Constant)):
                self.status = statement.value.value
        if any(_name(base) in CLASSES for base in node.bases) and self.status is None:
            self.status = 400
        self.generic_visit(node)
        self.status = outer

    def visit_FunctionDef(self, node):
        if node.name == "violation_code":  # scoring/play.py: the codes of an illegal card
            for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return)):
                values = [ret.value.body, ret.value.orelse] if isinstance(ret.value, ast.IfExp) else [ret.value]
                self.play_codes |= {_const(v) for v in values} - {None}
        self.generic_visit(node)

    def visit_Assign(self, node):
        if _name(node.targets[0]) == "why" and isinstance(node.value, ast.IfExp):
            self.play_codes |= {_const(node.value.body), _const(node.value.orelse)} - {None}
        self.generic_visit(node)

    def visit_Dict(self, node):
        keys, _reason = _dict_keys(node)
        if {"code", "detail", "attr"} <= keys and self.where == "service":  # a failed task's recorded refusal
            code = _const(node.values[[_const(k) for k in node.keys].index("code")])
            if code:
                self.add(code, status=None, where="task")
        self.generic_visit(node)

    def visit_Call(self, node):
        name, args = _name(node.func), node.args
        keywords = {k.arg: k.value for k in node.keywords}
        code = _const(args[0]) if args else None
        if name == "Violation":
            params, reason = _dict_keys(args[2] if len(args) > 2 else keywords.get("params"))
            if "reason" in params and reason is None:
                pass  # scoring.types.bad itself: its callers name the reason
            elif code:
                self.add(code, reason=reason, params=params)
            else:
                self.dynamic_params |= params
        elif name == "bad" and len(args) > 1 and _const(args[1]):
            self.add("invalid_input", reason=_const(args[1]), params={"reason", *filter(None, keywords)})
        elif name == "_violation" and code:
            reason = _const(keywords.get("reason")) if "reason" in keywords else None
            self.add(code, reason=reason, params=set(filter(None, keywords)))
        elif name in CLASSES or (name == "__init__" and self.status):
            status = CLASSES.get(name) or self.status
            if name == "IdempotencyKeyMismatch":
                code = "idempotency_key_mismatch"
            if code:
                position = 1 if name in PARAMS_SECOND else 2
                params, reason = _dict_keys(args[position] if len(args) > position else keywords.get("params"))
                self.add(code, status=status, reason=reason, params=params)
        elif name in ("words", "validation_error") and _name(getattr(node.func, "value", None)) == "refusals" and code:
            params, reason = _dict_keys(args[1] if len(args) > 1 else None)
            self.add(code, reason=reason, params=params, status=None, where="settings" if self.model else None)
        elif name == "ValidationError" and _const(keywords.get("code")) and self.model:
            params, _reason = _dict_keys(keywords.get("params"))
            self.add(_const(keywords["code"]), params=params, where="settings")
        self.generic_visit(node)


def raised() -> dict[str, Found]:
    """Return every refusal code the source raises or records, with its reasons, params and statuses."""
    found: dict[str, Found] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or path.name in ("refusals.py", "refusal_catalogue.py"):
                continue
            scanner = _Scanner(found, path)
            scanner.visit(ast.parse(path.read_text(), str(path)))
            for code in scanner.play_codes:
                scanner.add(code, params=scanner.dynamic_params or {"trick", "seat", "card", "legal_cards"})
    return found


class _Shown(dict):
    """A placeholder shows as ``{name}`` in the catalogue."""

    def __missing__(self, key):
        return "{" + key + "}"


def english(key, params=()) -> str:
    """Return a sentence in English with its params as ``{name}`` (a team as ``{team}``)."""
    from django.utils import translation

    from tournaments.refusals import SENTENCES, _values

    code = key[0] if isinstance(key, tuple) else key
    shown = _Shown(_values(code, {p: "{" + p + "}" for p in params}, None))
    shown.update(ns_name="{ns_name}", ew_name="{ew_name}")
    with translation.override("en"):
        return str(SENTENCES[key] % shown)


def markdown() -> str:
    """Return docs/refusals.md."""
    from tournaments.refusals import CATALOGUE, SENTENCES

    found = raised()
    titles = {"engine": "The rules engine (scoring/)", "service": "The services (tournaments/services/)",
              "task": "A failed pairing task (its recorded error)",
              "settings": "A tournament's settings (Tournament.clean, through the services)",
              "api": "The API's own refusals (api/exceptions.py)",
              "workspace": "The workspace's own (web/workspace/)"}
    lines = [
        "# Refusal codes",
        "",
        "Every refusal carries a stable `code`, the field it concerns (`attr` in the API) and plain params;",
        "the words are written from them by `tournaments/refusals.py`, in the reader's language (the API's",
        "`detail` follows `Accept-Language`, English without it). A code with several sentences picks one by",
        "its `reason` param. `{ns_name}`/`{ew_name}` and `{team}` are the teams' names (NS and EW where the",
        "match is not known); a side (`side`, `winner`) is written as its team. An unknown code reads",
        "\"The request was refused ({code}).\" Statuses: 400 `validation_error`, 409 and 422 `client_error`",
        "([api.md](api.md#errors)).",
        "",
        "This file is written by `python -m tournaments.refusal_catalogue > docs/refusals.md` and checked by",
        "tests/tournaments/test_refusals.py: it lists what the code raises.",
    ]
    for where, title in titles.items():
        codes = [code for code, (place, _status) in CATALOGUE.items() if place == where]
        lines += ["", f"## {title}", "", "| code | reason | status | params | English words |",
                  "| --- | --- | --- | --- | --- |"]
        for code in codes:
            status = CATALOGUE[code][1]
            keys = [code] + sorted(k for k in SENTENCES if isinstance(k, tuple) and k[0] == code)
            raised_with = found[code].params if code in found else {}
            for key in keys:
                reason = key[1] if isinstance(key, tuple) else None
                if reason is None:
                    shown_reason = "—" if len(keys) == 1 or None in raised_with else "(any other)"
                else:
                    shown_reason = f"`{reason}`"
                if reason in raised_with:
                    params = raised_with[reason]
                elif reason is None and len(keys) > 1:
                    params = set()
                else:  # a sentence picked by another param (play_mismatch's field, points_impossible's range)
                    params = set().union(*raised_with.values())
                shown_params = ", ".join(f"`{p}`" for p in sorted(params)) or "—"
                lines.append(f"| `{code}` | {shown_reason} | {status or '—'} | {shown_params} "
                             f"| {english(key, params)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # pragma: no cover
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    print(markdown(), end="")
