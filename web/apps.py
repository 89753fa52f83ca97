from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "web"
    verbose_name = "Site"

    def ready(self):
        from django.urls import reverse

        from tournaments import links

        # The core's admin links to these pages through tournaments.links (it never imports web).
        links.register("standings", lambda tournament: reverse("web:standings", args=[tournament.slug]))
        links.register("match", lambda match: reverse("web:match", args=[match.round.tournament.slug, match.pk]))
