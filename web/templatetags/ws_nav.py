"""The workspace's navigation: where a tournament's name leads the signed-in user."""

from django import template
from django.urls import reverse

from tournaments import access

register = template.Library()


@register.simple_tag(takes_context=True)
def ws_tournament_home(context, tournament) -> str:
    """The tournament's page this user may open: its dashboard for an organizer, else the matches to score
    (a scorekeeper's or a director's, whom the dashboard answers with a 404)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is not None and access.is_organizer(user, tournament.pk):
        return reverse("ws:tournament", args=[tournament.slug])
    return reverse("ws:score", args=[tournament.slug])
