"""The site speaks five languages: every string translated, compiled, and the catalogues up to date with the code."""

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ["nl", "fr", "es", "ca"]
MAKEMESSAGES_IGNORE = [".venv", "bench", "tests", "build", "dist", "staticfiles"]


def catalogue(lang: str) -> polib.POFile:
    return polib.pofile(str(ROOT / f"locale/{lang}/LC_MESSAGES/django.po"))


def keys(po) -> set:
    return {(e.msgctxt, e.msgid) for e in po if not e.obsolete and e.msgid}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_string_is_translated(lang):
    po = catalogue(lang)
    missing = [e.msgid for e in po if not e.obsolete and (not e.translated() or "fuzzy" in e.flags)]
    assert not missing, f"{len(missing)} strings untranslated or fuzzy in {lang}: {missing[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_is_the_committed_one(lang):
    """A clone needs no gettext: the .mo next to each .po holds exactly its translations."""
    po = catalogue(lang)
    mo = polib.mofile(str(ROOT / f"locale/{lang}/LC_MESSAGES/django.mo"))

    def entries(cat, wanted):
        return {(e.msgctxt, e.msgid): (e.msgstr, tuple(sorted((int(k), v) for k, v in e.msgstr_plural.items())))
                for e in cat if e.msgid and wanted(e)}

    compiled = entries(mo, lambda e: True)
    translated = entries(po, lambda e: not e.obsolete and e.translated() and "fuzzy" not in e.flags)
    assert compiled == translated, "run manage.py compilemessages and commit the .mo files"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="xgettext (gettext) is not installed")
def test_the_catalogues_hold_every_string_of_the_code(tmp_path):
    """makemessages on a copy of the tree finds no string the committed catalogue lacks (nor one it no longer has)."""
    copy = tmp_path / "tree"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "node_modules",
                                                              "*.pyc", ".pytest_cache"))
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "nl", "--no-obsolete",
                    *[f"--ignore={i}" for i in MAKEMESSAGES_IGNORE]],
                   cwd=copy, check=True, capture_output=True, text=True, timeout=120)
    fresh = keys(polib.pofile(str(copy / "locale/nl/LC_MESSAGES/django.po")))
    committed = keys(catalogue("nl"))
    assert fresh - committed == set(), f"strings missing from the catalogues: {sorted(fresh - committed)[:10]}"
    assert committed - fresh == set(), f"strings the code no longer has: {sorted(committed - fresh)[:10]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_plural_has_each_form_of_its_language(lang):
    """Spanish has three plural forms (one, millions, the others): an entry with two falls back to English for 2."""
    import re

    po = catalogue(lang)
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    short = [e.msgid for e in po if not e.obsolete and e.msgid_plural
             and sorted(int(k) for k in e.msgstr_plural) != list(range(forms))]
    assert not short, f"{len(short)} plural entries without {forms} forms in {lang}: {short[:5]}"
