"""The project's PostgreSQL backend (config.postgresql) for the test process, emptying the tables with DELETE.

After each transactional test (``django_db(transaction=True)``, the live servers and real processes) Django
flushes the database. PostgreSQL's backend does it with one ``TRUNCATE`` of all 38 tables, which gives each table
new files: 0.2 to 1.2 s a test on the development machine (the more, the busier its disk), where the ``DELETE`` of
the few rows a test wrote takes about 10 ms (and the flush, with Django's content types and permissions written
again after it, about 0.1 s). A ``DELETE`` fires the tables' triggers, which ``TRUNCATE`` does not: a deleted match, round or entry
adds a standings change row (tournaments/migrations/0005). So the statements run again until a round deletes
nothing. The foreign keys are deferred to the end of the flush's transaction, so the order of the tables does not
matter. Only the test process uses this backend (tests/settings.py); the real processes a test starts use
config.postgresql.
"""

from django.db import transaction

from config.postgresql import base

ROUNDS = 10


class DatabaseOperations(base.DatabaseWrapper.ops_class):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or reset_sequences or allow_cascade:  # what DELETE cannot do: TRUNCATE as usual
            return super().sql_flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"DELETE FROM {self.quote_name(table)};" for table in sorted(tables)]  # plain: no terminal's colours

    def execute_sql_flush(self, sql_list):
        if not sql_list or not all(sql.startswith("DELETE FROM ") for sql in sql_list):
            return super().execute_sql_flush(sql_list)
        with (transaction.atomic(using=self.connection.alias, savepoint=self.connection.features.can_rollback_ddl),
              self.connection.cursor() as cursor):
            for _ in range(ROUNDS):
                deleted = 0
                for sql in sql_list:
                    cursor.execute(sql)
                    deleted += max(cursor.rowcount, 0)
                if not deleted:
                    return
        raise RuntimeError(f"the tables were not empty after {ROUNDS} rounds of DELETE: a trigger refills them")


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
