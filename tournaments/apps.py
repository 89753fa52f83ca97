from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self):
        from tournaments import tasks, versions  # noqa: F401  (tasks: registered for tournaments/queue.py)

        versions.connect()  # the version stamps follow every write (tournaments/versions.py)
