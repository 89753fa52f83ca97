"""A round's public page and name: round numbers count per stage, so a later stage's round is reached and named
through its stage (``/t/<slug>/stages/<s>/rounds/<n>/``, "Stage 2, round 1"); stage 1's keep ``/rounds/<n>/``."""

from django import template
from django.urls import reverse
from django.utils.translation import gettext as _

register = template.Library()


def _stage(rnd) -> int:
    """The round's stage's number (its stage as read with it; else one query)."""
    return rnd.stage.number if rnd.stage_id else 1


@register.simple_tag
def round_url(slug: str, rnd) -> str:
    """``{% round_url tournament.slug round %}``: the round's public page."""
    stage = _stage(rnd)
    if stage == 1:
        return reverse("web:round", args=[slug, rnd.number])
    return reverse("web:stage-round", args=[slug, stage, rnd.number])


@register.simple_tag
def round_name(rnd) -> str:
    """``{% round_name round %}``: "Round 3", or a later stage's "Stage 2, round 1"."""
    stage = _stage(rnd)
    if stage == 1:
        return _("Round %(n)s") % {"n": rnd.number}
    return _("Stage %(stage)s, round %(n)s") % {"stage": stage, "n": rnd.number}
