"""One convention for a reference in an answer: the id under the field's name, the object beside it as
``<name>_detail``.

``../shared/docs/api.md`` fixes some references as ids (a round's ``ns``/``ew``, a standings row's ``team``, the
bodies' ``club``, ``players``, ``team``); every other reference follows the same pattern, so a client learns it once:

    "club": 3, "club_detail": {"id": 3, "name": "De Zwarte Kat"}

A ``_detail`` always has ``id`` and ``name``; some carry a little more (a team's club, a tournament's slug).

``detail_field`` declares the companion on a serializer (for the schema and the answer); ``ref`` writes one; ``split``
turns an answer built with objects under the plain names (the selectors' scoreboard, a wall's tables) into ids with
their ``_detail``.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers


class RefSerializer(serializers.Serializer):
    """An object named: its id and name (every ``_detail`` has at least these)."""

    id = serializers.IntegerField()
    name = serializers.CharField()

    class Meta:
        ref_name = "Ref"


def ref(obj, name_attr: str = "name") -> dict | None:
    """``{"id", "name"}`` of a model instance (None for None)."""
    if obj is None:
        return None
    return {"id": obj.pk, "name": getattr(obj, name_attr)}


class DetailField(serializers.Field):
    """A read-only ``<name>_detail``: the object a reference names, written by ``write`` (``detail_field``)."""

    def __init__(self, *, path: str | None, shape, many: bool, write, **kwargs):
        self.path, self.shape, self.many, self.write = path, shape, many, write
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def get_attribute(self, instance):
        value = instance
        for part in (self.path or self.field_name.removesuffix("_detail")).split("."):
            if value is None:
                return None
            value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
        if self.many:
            return list(value.all()) if hasattr(value, "all") else list(value or [])
        return value

    def to_representation(self, value):
        return [self.write(v) for v in value] if self.many else self.write(value)


class DetailFieldSchema(OpenApiSerializerFieldExtension):
    """A ``DetailField`` in the schema: its shape in answers; nothing in requests (it is read-only, and a shape
    resolved for a request would leave an unused ``…Request`` component)."""

    target_class = DetailField
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        if direction == "request":
            return {"type": "object"}  # dropped: read-only fields are not in request components
        field = self.target
        shape = field.shape if isinstance(field.shape, serializers.BaseSerializer) else field.shape(many=field.many)
        return auto_schema._map_serializer_field(shape, direction)


def detail_field(source: str | None = None, *, shape: serializers.Serializer | type | None = None, many: bool = False,
                 allow_null: bool = True, name_attr: str = "name", help_text: str | None = None,
                 build=None) -> DetailField:
    """A read-only ``<name>_detail`` field: the object (``{id, name}``, or ``shape``'s) a reference names.

    ``source``: the attribute path of the related object (default: the field's name without ``_detail``;
    ``"round.tournament"``; ``many``: a manager or a list). ``build``: a function of the related object that writes
    the detail (default: ``ref``). The related objects should be joined by the view (``select_related``/
    ``prefetch_related``): a detail costs no query.
    """
    kwargs = {"help_text": help_text} if help_text else {}
    return DetailField(path=source, shape=shape or RefSerializer, many=many,
                       write=build or (lambda obj: ref(obj, name_attr)), allow_null=allow_null and not many, **kwargs)


def split(data: dict, *names: str) -> dict:
    """``data`` with each of ``names`` (an object or None) turned into its id, the object moved to ``<name>_detail``.

    The details are placed right after the field they belong to, so an answer reads ``ns, ns_detail, ew, ...``.
    """
    out = {}
    for key, value in data.items():
        if key in names:
            out[key] = None if value is None else value["id"]
            out[f"{key}_detail"] = value
        else:
            out[key] = value
    return out
