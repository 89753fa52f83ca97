"""A deprecated operation says so in every answer and in the schema (docs/api.md, Versioning and deprecation)."""

from datetime import date

from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from api.deprecation import deprecated


class Old(serializers.Serializer):
    old = serializers.IntegerField()


class OldView(APIView):
    permission_classes = [AllowAny]

    @deprecated(since=date(2026, 12, 1), sunset=date(2027, 6, 1))
    @extend_schema(summary="The old way", responses=Old)
    def get(self, request):
        if request.GET.get("fail"):
            raise exceptions.ValidationError({"old": ["No."]})
        return Response({"old": 1})


def test_every_answer_of_a_deprecated_operation_carries_the_fields():
    for query, status in (({}, 200), ({"fail": "1"}, 400)):
        response = OldView.as_view()(APIRequestFactory().get("/old/", query))
        assert response.status_code == status
        assert response["Deprecation"] == "@1796083200"
        assert response["Sunset"] == "Tue, 01 Jun 2027 00:00:00 GMT"
        assert response["Link"] == '</api/docs/>; rel="deprecation"'


def test_the_schema_marks_it_deprecated_and_keeps_its_other_annotations():
    schema = SchemaGenerator(patterns=[path("old/", OldView.as_view())]).get_schema(request=None, public=True)
    operation = schema["paths"]["/old/"]["get"]
    assert operation["deprecated"] is True and operation["summary"] == "The old way"
