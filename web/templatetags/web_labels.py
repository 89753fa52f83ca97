"""Template filters that put the engine's codes into the visitor's words (``web.labels``)."""

from django import template
from tournaments import vocabulary


register = template.Library()


@register.filter
def variant_name(variant) -> str:
    """``{{ tournament.variant_obj|variant_name }}``: a variant (or its slug) named in the page's language."""
    return vocabulary.variant_name(variant) if variant else ""
