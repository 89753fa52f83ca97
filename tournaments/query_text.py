"""Text from a query string that reaches the database: a null character is refused at the door (400).

PostgreSQL refuses NUL in text, so a search for one reached the database as a ``DataError`` and
answered 500. No one types it; it is hostile or broken input, and refused as such, with the answer
the API gives it (DRF's fields and django-filter's forms refuse it already: 400
``null_characters_not_allowed``): a ``BadRequest`` here, which Django answers 400 (``400.html``).
The site's search boxes read their text through ``search_text``; the admin's changelists (their
search and filters) and autocompletes through ``NullSafeAdminMixin``.
"""

from collections.abc import Mapping

from django import forms
from django.core.exceptions import BadRequest, ValidationError

#: A search box's text: Django's CharField, whose validators refuse a null character.
_SEARCH_FIELD = forms.CharField(required=False)

#: The longest search the site reads (longer text is cut).
SEARCH_LIMIT = 100


def refuse_null_characters(value: str, name: str) -> str:
    """Return ``value``, or raise ``BadRequest`` (400) when it holds a null character."""
    if "\x00" in value:
        raise BadRequest(f"{name}: null characters are not allowed")
    return value


def search_text(query: Mapping, name: str = "q", limit: int = SEARCH_LIMIT) -> str:
    """The text of the search box ``name`` of a query string (``request.GET``): its words, spaces collapsed,
    at most ``limit`` characters; ``BadRequest`` (400) for a null character."""
    try:
        value = _SEARCH_FIELD.clean(query.get(name, ""))
    except ValidationError as exc:
        raise BadRequest(f"{name}: {' '.join(exc.messages)}") from None
    return " ".join(value.split())[:limit]


def refuse_null_query(query) -> None:
    """Raise ``BadRequest`` (400) when a name or a value of a query string (a ``QueryDict``) holds a null character."""
    for name, values in query.lists():
        refuse_null_characters(name, "the query string")
        for value in values:
            refuse_null_characters(value, name)


class NullSafeAdminMixin:
    """A ModelAdmin whose changelist (its search ``q``, its filters, every parameter) and autocomplete
    (its ``term``, searched by ``get_search_results``) refuse a null character: 400, not a 500 from the
    database (Django's own changelist would drop such a search with a message, but not a filter's)."""

    def changelist_view(self, request, extra_context=None):
        refuse_null_query(request.GET)
        return super().changelist_view(request, extra_context)

    def get_search_results(self, request, queryset, search_term):
        refuse_null_characters(search_term, "term")
        return super().get_search_results(request, queryset, search_term)
