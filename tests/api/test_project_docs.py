"""Issue 13: the project carries its own docs, and the README's configuration table lists every variable read."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = re.compile(r"""(?:os\.environ\.get|os\.environ\[|os\.getenv|env_bool|env_list|env_int)\(?\s*["']([A-Z][A-Z0-9_]+)["']""")
SOURCES = ["config", "api", "tournaments", "web", "scoring"]


def _variables_read() -> set[str]:
    names = set()
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*.py"):
            names |= set(READ.findall(path.read_text()))
    return names - {"DJANGO_SETTINGS_MODULE"}


def _configuration_table() -> str:
    readme = (ROOT / "README.md").read_text()
    return readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]


def test_the_readme_lists_every_environment_variable_the_code_reads():
    table = _configuration_table()
    listed = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    read = _variables_read()
    assert {"DATABASE_URL", "REDIS_URL", "CORS_ALLOWED_ORIGINS"} <= read
    assert read <= listed, f"missing from README's Configuration: {sorted(read - listed)}"


def test_the_docs_are_in_the_repository_and_the_readme_points_to_them():
    readme = (ROOT / "README.md").read_text()
    assert "../shared/" not in readme
    for name in ("rules.md", "api.md", "roles.md"):
        text = (ROOT / "docs" / name).read_text()
        assert len(text) > 2000 and "../shared/" not in text
        assert f"(docs/{name})" in readme
    # Links between the docs resolve.
    for doc in (ROOT / "docs").glob("*.md"):
        for target in re.findall(r"\]\(([a-z_]+\.md)\)", doc.read_text()):
            assert (ROOT / "docs" / target).exists(), (doc.name, target)


def test_the_rule_docs_name_every_variant_and_every_check_code():
    from api.openapi import RULE_CODES
    from scoring.variants import VARIANTS

    rules = (ROOT / "docs" / "rules.md").read_text()
    for slug in VARIANTS:
        assert f"`{slug}`" in rules, slug
    for code in RULE_CODES:
        if code != "invalid_input":
            assert f"`{code}`" in rules, code
