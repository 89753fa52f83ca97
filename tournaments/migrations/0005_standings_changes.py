"""Standings changes: a table the database itself fills, so a recompute can start from what changed.

Triggers on PostgreSQL and SQLite (as in 0002) add a ``tournaments_standingschange`` row for every
committed change that may move a tournament's standings:

* a match inserted or deleted, or updated in its round, teams or result: the match's id (for its
  old and its new round's tournament when it moved);
* a round inserted, deleted or renumbered, an entry inserted, deleted or changed in its team,
  seed or withdrawal, an entered team moved to another club: no match (reload everything).

A deleted tournament's rows go with it. The standings recompute deletes a tournament's rows under
its lock and reads what they name (``tournaments.services.standings``).

And the other way round: any write to a tournament's saved standings rows empties its snapshot's
``generation``. The recompute writes the generation after its rows, so only a write by someone
else (a bulk update, plain SQL) leaves it empty, and the next recompute reads everything again
instead of trusting the rows it kept.
"""

from django.db import migrations, models

CHANGE = "tournaments_standingschange"
MATCH_COLUMNS = ["round_id", "ns_id", "ew_id", "status", "winner", "games_won_ns", "games_won_ew", "points_ns",
                 "points_ew"]
ROUND_COLUMNS = ["tournament_id", "number"]
ENTRY_COLUMNS = ["tournament_id", "team_id", "seed", "withdrawn"]


def _match_change(row: str) -> str:
    return (f"INSERT INTO {CHANGE} (tournament_id, match_id) "
            f"SELECT tournament_id, {row}.id FROM tournaments_round WHERE id = {row}.round_id")


def _all_change(row: str) -> str:
    return f"INSERT INTO {CHANGE} (tournament_id, match_id) VALUES ({row}.tournament_id, NULL)"


TEAM_CHANGE = (f"INSERT INTO {CHANGE} (tournament_id, match_id) "
               "SELECT tournament_id, NULL FROM tournaments_entry WHERE team_id = NEW.id")
TOURNAMENT_GONE = f"DELETE FROM {CHANGE} WHERE tournament_id = OLD.id"


def _postgres_changed(columns) -> str:
    return (f"({', '.join(f'OLD.{c}' for c in columns)}) IS DISTINCT FROM "
            f"({', '.join(f'NEW.{c}' for c in columns)})")


def _sqlite_changed(columns) -> str:
    return " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in columns)


# PostgreSQL: trigger functions by name (their bodies), then the triggers that call them.
POSTGRES_FUNCTIONS = {
    "tournaments_standings_change_match": f"""
        IF TG_OP <> 'INSERT' THEN {_match_change('OLD')}; END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.round_id <> OLD.round_id) THEN {_match_change('NEW')}; END IF;
        RETURN NULL;""",
    "tournaments_standings_change_all": f"""
        IF TG_OP <> 'INSERT' THEN {_all_change('OLD')}; END IF;
        IF TG_OP <> 'DELETE' THEN {_all_change('NEW')}; END IF;
        RETURN NULL;""",
    "tournaments_standings_change_team": f"""
        {TEAM_CHANGE};
        RETURN NULL;""",
    "tournaments_standings_change_gone": f"""
        {TOURNAMENT_GONE};
        RETURN NULL;""",
    # Statement-level, over the transition table "touched" (one UPDATE however many rows).
    "tournaments_standings_rows_written": """
        UPDATE tournaments_standingssnapshot SET generation = ''
        WHERE generation <> '' AND tournament_id IN (SELECT tournament_id FROM touched);
        RETURN NULL;""",
}
# (trigger, event, transition table) on tournaments_standing: PostgreSQL allows one event per
# trigger with a transition table.
POSTGRES_STANDING_TRIGGERS = [
    ("tournaments_standing_written_insert", "INSERT", "NEW"),
    ("tournaments_standing_written_update", "UPDATE", "NEW"),
    ("tournaments_standing_written_delete", "DELETE", "OLD"),
]
POSTGRES_TRIGGERS = [
    # (trigger, table, events, WHEN condition or "", function)
    ("tournaments_match_standings", "tournaments_match", "INSERT OR DELETE", "", "match"),
    ("tournaments_match_standings_update", "tournaments_match", "UPDATE", _postgres_changed(MATCH_COLUMNS), "match"),
    ("tournaments_round_standings", "tournaments_round", "INSERT OR DELETE", "", "all"),
    ("tournaments_round_standings_update", "tournaments_round", "UPDATE", _postgres_changed(ROUND_COLUMNS), "all"),
    ("tournaments_entry_standings", "tournaments_entry", "INSERT OR DELETE", "", "all"),
    ("tournaments_entry_standings_update", "tournaments_entry", "UPDATE", _postgres_changed(ENTRY_COLUMNS), "all"),
    ("tournaments_team_standings_update", "tournaments_team", "UPDATE", _postgres_changed(["club_id"]), "team"),
    ("tournaments_tournament_standings_delete", "tournaments_tournament", "DELETE", "", "gone"),
]


def _postgres_up() -> list[str]:
    statements = [f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger AS $$ BEGIN{body}\nEND; $$ LANGUAGE plpgsql"
                  for name, body in POSTGRES_FUNCTIONS.items()]
    for trigger, table, events, when, function in POSTGRES_TRIGGERS:
        condition = f" WHEN ({when})" if when else ""
        statements.append(f"CREATE TRIGGER {trigger} AFTER {events} ON {table} FOR EACH ROW{condition} "
                          f"EXECUTE FUNCTION tournaments_standings_change_{function}()")
    for trigger, event, table in POSTGRES_STANDING_TRIGGERS:
        statements.append(f"CREATE TRIGGER {trigger} AFTER {event} ON tournaments_standing "
                          f"REFERENCING {table} TABLE AS touched FOR EACH STATEMENT "
                          "EXECUTE FUNCTION tournaments_standings_rows_written()")
    return statements


def _postgres_down() -> list[str]:
    return ([f"DROP TRIGGER IF EXISTS {trigger} ON {table}" for trigger, table, *_ in POSTGRES_TRIGGERS]
            + [f"DROP TRIGGER IF EXISTS {trigger} ON tournaments_standing"
               for trigger, *_ in POSTGRES_STANDING_TRIGGERS]
            + [f"DROP FUNCTION IF EXISTS {name}()" for name in POSTGRES_FUNCTIONS])


# SQLite: one trigger an event, the statements inline.
SQLITE_TRIGGERS = [
    ("tournaments_match_standings_insert", "INSERT", "tournaments_match", "", [_match_change("NEW")]),
    ("tournaments_match_standings_delete", "DELETE", "tournaments_match", "", [_match_change("OLD")]),
    ("tournaments_match_standings_update", "UPDATE", "tournaments_match", _sqlite_changed(MATCH_COLUMNS),
     [_match_change("OLD"), _match_change("NEW") + " AND NEW.round_id IS NOT OLD.round_id"]),
    ("tournaments_round_standings_insert", "INSERT", "tournaments_round", "", [_all_change("NEW")]),
    ("tournaments_round_standings_delete", "DELETE", "tournaments_round", "", [_all_change("OLD")]),
    ("tournaments_round_standings_update", "UPDATE", "tournaments_round", _sqlite_changed(ROUND_COLUMNS),
     [_all_change("OLD"), _all_change("NEW")]),
    ("tournaments_entry_standings_insert", "INSERT", "tournaments_entry", "", [_all_change("NEW")]),
    ("tournaments_entry_standings_delete", "DELETE", "tournaments_entry", "", [_all_change("OLD")]),
    ("tournaments_entry_standings_update", "UPDATE", "tournaments_entry", _sqlite_changed(ENTRY_COLUMNS),
     [_all_change("OLD"), _all_change("NEW")]),
    ("tournaments_team_standings_update", "UPDATE", "tournaments_team", _sqlite_changed(["club_id"]), [TEAM_CHANGE]),
    ("tournaments_tournament_standings_delete", "DELETE", "tournaments_tournament", "", [TOURNAMENT_GONE]),
    *((f"tournaments_standing_written_{event.lower()}", event, "tournaments_standing", "",
       [f"UPDATE tournaments_standingssnapshot SET generation = '' "
        f"WHERE tournament_id = {row}.tournament_id AND generation <> ''"])
      for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD"))),
]


def _sqlite_up() -> list[str]:
    return [f"CREATE TRIGGER {trigger} AFTER {event} ON {table}{f' WHEN {when}' if when else ''} "
            f"BEGIN {'; '.join(body)}; END"
            for trigger, event, table, when, body in SQLITE_TRIGGERS]


def _sqlite_down() -> list[str]:
    return [f"DROP TRIGGER IF EXISTS {trigger}" for trigger, *_ in SQLITE_TRIGGERS]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = _postgres_up() if vendor == "postgresql" else _sqlite_up() if vendor == "sqlite" else []
    for sql in statements:
        schema_editor.execute(sql, params=None)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = _postgres_down() if vendor == "postgresql" else _sqlite_down() if vendor == "sqlite" else []
    for sql in statements:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_match_points"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingsChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tournament_id", models.BigIntegerField(db_index=True)),
                ("match_id", models.BigIntegerField(blank=True, help_text="Empty: reload the whole tournament.",
                                                    null=True)),
            ],
        ),
        migrations.AddField(
            model_name="standingssnapshot",
            name="generation",
            field=models.CharField(
                blank=True, default="", max_length=32,
                help_text="A random id written with every recompute: a worker that kept the inputs of the "
                          "recompute with this id may start the next one from them."),
        ),
        migrations.RunPython(forwards, backwards),
    ]
