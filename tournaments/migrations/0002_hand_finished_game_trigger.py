"""A database trigger that refuses a hand inserted into a finished game.

Django has no declarative constraint across two tables, so this is a trigger on each supported
backend (PostgreSQL, SQLite); the services check the same thing first and answer ``game_over``.
"""

from django.db import migrations

POSTGRES_UP = """
CREATE OR REPLACE FUNCTION tournaments_hand_refuse_finished_game() RETURNS trigger AS $$
BEGIN
    IF (SELECT status FROM tournaments_game WHERE id = NEW.game_id) = 'finished' THEN
        RAISE EXCEPTION 'game % is finished: no hand may be added', NEW.game_id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER tournaments_hand_not_in_finished_game
    BEFORE INSERT ON tournaments_hand
    FOR EACH ROW EXECUTE FUNCTION tournaments_hand_refuse_finished_game();
"""
POSTGRES_DOWN = """
DROP TRIGGER IF EXISTS tournaments_hand_not_in_finished_game ON tournaments_hand;
DROP FUNCTION IF EXISTS tournaments_hand_refuse_finished_game();
"""
SQLITE_UP = """
CREATE TRIGGER tournaments_hand_not_in_finished_game
BEFORE INSERT ON tournaments_hand
WHEN (SELECT status FROM tournaments_game WHERE id = NEW.game_id) = 'finished'
BEGIN
    SELECT RAISE(ABORT, 'CHECK constraint failed: hand in a finished game');
END;
"""
SQLITE_DOWN = "DROP TRIGGER IF EXISTS tournaments_hand_not_in_finished_game;"


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_UP, params=None)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_UP)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(POSTGRES_DOWN)
    elif vendor == "sqlite":
        schema_editor.execute(SQLITE_DOWN)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(forwards, backwards)]
