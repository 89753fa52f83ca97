"""Template filters that put the engine's codes into the visitor's words (``tournaments.vocabulary``)."""

from django import template

from tournaments import vocabulary


register = template.Library()


@register.filter
def variant_name(variant) -> str:
    """``{{ tournament.variant_obj|variant_name }}``: a variant (or its slug) named in the page's language."""
    return vocabulary.variant_name(variant) if variant else ""


@register.filter
def tournament_status(status: str, reader: str = "") -> str:
    """``{{ tournament.status|tournament_status }}``: a tournament's status as the public site says it ("Upcoming");
    ``|tournament_status:"organizer"`` as its organizers' dashboard does ("Draft")."""
    words = vocabulary.ORGANIZER_STATUS if reader == "organizer" else vocabulary.TOURNAMENT_STATUS
    return str(words.get(status, status))


@register.filter
def metric_name(metric: str) -> str:
    """``{{ "match_points"|metric_name }}``: a standings metric's name ("Match points")."""
    words = vocabulary.METRIC_LABELS.get(metric)
    return metric if words is None else str(words[1])


@register.filter
def side_name(side: str) -> str:
    """``{{ "ns"|side_name }}``: a side of the table in words ("North–South")."""
    return vocabulary.side_name(side)


@register.filter
def side_short(side: str) -> str:
    """``{{ "ns"|side_short }}``: a side of the table as a score sheet's column heads it ("NS")."""
    return vocabulary.side_name(side, short=True)


@register.filter
def pairing_reasons(match) -> str:
    """``{{ match|pairing_reasons }}``: why the pairing chose this match, in the page's language."""
    return vocabulary.pairing_reasons(match.why, match.explanation)


@register.filter
def seat_letter(letter: str) -> str:
    """``{{ "E"|seat_letter }}``: a seat's letter as the page's language writes it ("O" in Dutch)."""
    return vocabulary.seat(letter)


@register.filter
def seat_name(letter: str) -> str:
    """``{{ "E"|seat_name }}``: a seat in full, as a player is told where to sit ("East")."""
    from web.pages_individual import seat_name as name

    return name(letter)


@register.filter
def day_time(value) -> str:
    """``{{ action.created_at|day_time }}``: a day of this year and its time in the page's language's own formats
    (``MONTH_DAY_FORMAT``, ``TIME_FORMAT``: "27 novembre 08:33"), its month's name translated."""
    if not value:
        return ""
    from django.template.defaultfilters import date, time

    return f"{date(value, 'MONTH_DAY_FORMAT')} {time(value, 'TIME_FORMAT')}"
