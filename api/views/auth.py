"""Tokens and the signed-in user."""

from drf_spectacular.utils import extend_schema, inline_serializer
from drf_standardized_errors.openapi_validation_errors import extend_validation_errors
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ..serializers.registry import UserSerializer
from ..throttling import TokenThrottle


@extend_validation_errors(["authorization"], field_name="non_field_errors", methods=["post"])
class TokenView(ObtainAuthToken):
    """Exchange a username and password for the user's API token."""

    throttle_classes = [TokenThrottle]

    @extend_schema(summary="Get your API token (send it as `Authorization: Token <key>`)",
                   responses=inline_serializer("Token", {"token": serializers.CharField()}))
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)


class MeSerializer(UserSerializer):
    managed_clubs = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    organized_tournaments = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    scorekept_tournaments = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta(UserSerializer.Meta):
        fields = [*UserSerializer.Meta.fields, "managed_clubs", "organized_tournaments", "scorekept_tournaments"]
        read_only_fields = fields


class MeView(APIView):
    """Who you are, and what you manage, organize and keep score of."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in user and their roles", responses=MeSerializer)
    def get(self, request):
        return Response(MeSerializer(request.user).data)
