"""Only the hand services write a Hand: no module outside ``tournaments/services`` creates, saves or deletes one.

Tests, migrations and the benchmarks' fixtures (``bench/``) are not the application and are left out.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "tournaments" / "services"
LEFT_OUT = {"tests", "bench", "docs", "deploy", "dev", "var", ".venv", "node_modules"}
WRITES = {"create", "bulk_create", "get_or_create", "update_or_create", "update", "bulk_update", "delete", "save"}
#: A receiver that is a hand (``hand``, ``last_hand``, ``hand_form.instance`` is not: a form's own save is Django's).
HAND_NAME = re.compile(r"(^|[._])hands?($|[._\[])")


def _imports_hand_model(tree: ast.Module) -> bool:
    return any(isinstance(node, ast.ImportFrom) and node.module == "tournaments.models"
               and any(alias.name == "Hand" and alias.asname is None for alias in node.names)
               for node in ast.walk(tree))


def hand_writes(source: str) -> list[str]:
    """The statements of a module's source that write a Hand row, as source text."""
    tree = ast.parse(source)
    model = _imports_hand_model(tree)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if model and isinstance(func, ast.Name) and func.id == "Hand":
            found.append(ast.unparse(node))
        elif isinstance(func, ast.Attribute) and func.attr in WRITES:
            receiver = ast.unparse(func.value)
            if ("Hand.objects" in receiver and model) or re.search(r"\.hands\b", receiver) \
                    or (func.attr in ("save", "delete") and HAND_NAME.search(receiver.split("(")[0])):
                found.append(ast.unparse(node))
    return found


def _modules():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in LEFT_OUT or "migrations" in parts or path.is_relative_to(SERVICES):
            continue
        yield path


def test_no_module_outside_the_services_writes_a_hand():
    writes = {str(path.relative_to(ROOT)): found for path in _modules()
              if (found := hand_writes(path.read_text(encoding="utf-8")))}
    assert writes == {}


def test_the_check_sees_the_services_own_writes():
    """Not vacuous: it finds what the hand services do."""
    found = hand_writes((SERVICES / "hands.py").read_text(encoding="utf-8"))
    assert any(w.startswith("Hand(") for w in found)
    assert any(w == "hand.delete()" for w in found)
    assert hand_writes("from tournaments.models import Hand\nHand.objects.filter(game=g).delete()\n")
    assert hand_writes("game.hands.all().delete()\n")
    assert hand_writes("from tournaments.models import Hand\nHand.objects.bulk_create(rows)\n")
    assert not hand_writes("handler.save()\nscoring.Hand(dealer='N')\n")
