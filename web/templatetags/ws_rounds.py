"""The workspace's links to a round: round numbers count per stage, so a later stage's round is reached with
``?stage=<n>`` (``/my/t/<slug>/rounds/<n>/`` alone is stage 1's, as ``/t/<slug>/rounds/<n>/`` on the public site);
and whether the organizer's header says the event's last stage is "All played" (``ws_all_played``)."""

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


@register.simple_tag(takes_context=True)
def ws_all_played(context) -> bool:
    """``{% ws_all_played as all_played %}``: whether a multi-stage event's last stage is played out and waits for its
    organizer to close it (``pages_stages.awaiting_close``), which the header's badge says ("All played") as the
    public pages' header does. The page's own ``awaiting`` when its view knew it (read with what it shows: nothing
    more read), else asked here (a running event's last stage: one query, two or three more for several stages)."""
    if "awaiting" in context:
        return bool(context["awaiting"])
    from web.pages_stages import awaiting_close

    return awaiting_close(context["tournament"]) is not None
