"""A round's public page and name (``web.round_names``): round numbers count per stage, so a later stage's round
is reached and named through its stage (``/t/<slug>/stages/<s>/rounds/<n>/``, "Stage 2, round 1"); stage 1's keep
``/rounds/<n>/``; a knockout's rounds are named as its bracket names them ("Quarter-finals", "Final")."""

from django import template

from web import round_names

register = template.Library()


@register.simple_tag
def round_url(slug: str, rnd, kind: str = "") -> str:
    """``{% round_url tournament.slug round %}``: the round's public page; ``{% round_url slug round "print" %}``
    one of its print pages (``round_names.KINDS``: print, pdf, sheets, sheets-pdf, seat, seats-print, seats-pdf)."""
    return round_names.round_url(slug, rnd, kind)


@register.simple_tag
def round_name(rnd, match=None) -> str:
    """``{% round_name round %}``: "Round 3", a later stage's "Stage 2, round 1", a knockout's "Final";
    ``{% round_name round match %}``: the match for third place is "Match for third place"."""
    return round_names.round_name(rnd, match)
