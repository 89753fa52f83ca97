"""The workspace's links to a round: round numbers count per stage, so a later stage's round is reached with
``?stage=<n>`` (``/my/t/<slug>/rounds/<n>/`` alone is stage 1's, as ``/t/<slug>/rounds/<n>/`` on the public site)."""

from django import template
from django.urls import reverse

from web import round_names

register = template.Library()


def stage_query(rnd) -> str:
    """``?stage=2`` for a later stage's round, nothing for stage 1's (``round_names.stage_number``)."""
    stage = round_names.stage_number(rnd)
    return "" if stage == 1 else f"?stage={stage}"


@register.simple_tag
def ws_round_url(name: str, slug: str, rnd) -> str:
    """``{% ws_round_url 'ws:round-clock' tournament.slug round %}``: a workspace URL of the round, with its stage."""
    return reverse(name, args=[slug, rnd.number]) + stage_query(rnd)
