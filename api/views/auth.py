"""Tokens and the signed-in user (issue #11, points 6 and 7).

``POST auth/token/`` exchanges a username and password for a token that expires; failed attempts
count towards django-axes' lockout of the account and of the address (config/auth.py), on top of
the per-address throttle. ``POST auth/logout/`` revokes the token it is sent with; ``auth/tokens/``
lists the user's tokens (never a key) and revokes one.
"""

from django.contrib.auth import authenticate, user_logged_in, user_logged_out
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from drf_standardized_errors.openapi_serializers import ClientErrorEnum
from drf_standardized_errors.openapi_validation_errors import extend_validation_errors
from rest_framework import exceptions, serializers, status
from rest_framework.generics import get_object_or_404
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.auth import cool_off_seconds, lockout_message

from ..models import AuthToken
from ..serializers.refs import detail_field
from ..serializers.registry import UserSerializer
from ..throttling import TokenThrottle
from ..tokens import token_create, token_revoke, tokens_of, tokens_purge_expired
from .common import PAGINATION, page_of


class LockedOut(exceptions.Throttled):
    """429 ``locked_out``: too many failed sign-ins from this account or address."""

    default_code = "locked_out"

    def __init__(self):
        super().__init__(wait=cool_off_seconds() or None, detail=lockout_message(), code="locked_out")


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(write_only=True)
    password = serializers.CharField(write_only=True, trim_whitespace=False, style={"input_type": "password"})
    device = serializers.CharField(
        write_only=True, required=False, allow_blank=True, max_length=100,
        help_text="A name for the device (\"Table 3 phone\"); signing in again with the same name replaces "
                  "that device's token. Without a name, each sign-in issues a new token.")

    def validate(self, attrs):
        request = self.context["request"]
        django_request = getattr(request, "_request", request)
        user = authenticate(request=django_request, username=attrs["username"], password=attrs["password"])
        if getattr(django_request, "axes_locked_out", False):
            raise LockedOut()
        if user is None:
            raise serializers.ValidationError(_("Unable to log in with provided credentials."), code="authorization")
        attrs["user"] = user
        return attrs


class LockedOutErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="`throttled` (too many requests from this address) or `locked_out` "
                                           "(too many failed sign-ins for this account or address).")
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


class TokenErrorResponse429Serializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ClientErrorEnum.choices)
    errors = LockedOutErrorSerializer(many=True)


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`. Shown only once.")
    expiry = serializers.DateTimeField(help_text="When the token expires unless used before (see docs/api.md).")
    device = serializers.CharField(allow_blank=True)


class TokenInfoSerializer(serializers.ModelSerializer):
    id = serializers.CharField(source="token_key", read_only=True,
                               help_text="The key's first characters: enough to tell tokens apart, not to use one.")
    current = serializers.SerializerMethodField(help_text="Whether this is the token the request was sent with.")

    class Meta:
        model = AuthToken
        fields = ["id", "device", "created", "expiry", "current"]
        read_only_fields = fields

    def get_current(self, token) -> bool:
        auth = getattr(self.context.get("request"), "auth", None)
        return isinstance(auth, AuthToken) and auth.pk == token.pk


@extend_validation_errors(["authorization"], field_name="non_field_errors", methods=["post"])
class TokenView(APIView):
    """Exchange a username and password for an API token that expires."""

    authentication_classes = []
    permission_classes = [AllowAny]
    throttle_classes = [TokenThrottle]
    # Forms too, for `curl -d username=... -d password=...`; every other endpoint reads JSON only.
    parser_classes = [JSONParser, FormParser, MultiPartParser]

    @extend_schema(
        summary="Get an API token (send it as `Authorization: Token <key>`)",
        description="The token expires after `TOKEN_TTL_DAYS` without use (renewed on use, at most "
                    "`TOKEN_MAX_TTL_DAYS` after it was issued). Repeated failures lock the account and the "
                    "address out for a while: 429 `locked_out`, even with the right password.",
        request=TokenRequestSerializer, responses={200: TokenResponseSerializer, 429: TokenErrorResponse429Serializer},
        examples=[OpenApiExample("A scorekeeper's phone", request_only=True,
                                 value={"username": "scorekeeper", "password": "…", "device": "Table 3 phone"}),
                  OpenApiExample("The token", response_only=True,
                                 value={"token": "5d0c9f3e1b8a47d6a2c1e0f9b8a7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9",
                                        "expiry": "2026-12-24T10:00:00+01:00", "device": "Table 3 phone"})],
    )
    def post(self, request, *args, **kwargs):
        serializer = TokenRequestSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        instance, key = token_create(user=user, device=serializer.validated_data.get("device", ""))
        user_logged_in.send(sender=user.__class__, request=request._request, user=user)
        return Response(TokenResponseSerializer({"token": key, "expiry": instance.expiry,
                                                 "device": instance.device}).data)


class LogoutView(APIView):
    """Revoke the token the request is sent with."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Sign out: revoke this token", request=None, responses={204: None})
    def post(self, request, *args, **kwargs):
        if isinstance(request.auth, AuthToken):
            token_revoke(token=request.auth)
        user_logged_out.send(sender=request.user.__class__, request=request._request, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TokenListView(APIView):
    """The signed-in user's tokens (never their keys)."""

    permission_classes = [IsAuthenticated]
    pagination_class = PAGINATION  # the schema's page

    @extend_schema(summary="Your tokens: device, created, expiry", responses=TokenInfoSerializer(many=True))
    def get(self, request, *args, **kwargs):
        tokens_purge_expired(user=request.user)
        return page_of(request, tokens_of(request.user),
                       lambda page: TokenInfoSerializer(page, many=True, context={"request": request}).data, view=self)


class TokenDetailView(APIView):
    """Revoke one of your tokens (another device's, or this one)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Revoke one of your tokens", responses={204: None})
    def delete(self, request, token_id: str, *args, **kwargs):
        token = get_object_or_404(tokens_of(request.user), token_key=token_id)
        token_revoke(token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeSerializer(UserSerializer):
    managed_clubs = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    managed_clubs_detail = detail_field("managed_clubs", many=True, help_text="The clubs you manage: id and name.")
    organized_tournaments = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    organized_tournaments_detail = detail_field("organized_tournaments", many=True,
                                                help_text="The tournaments you organize: id and name.")
    scorekept_tournaments = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    scorekept_tournaments_detail = detail_field("scorekept_tournaments", many=True,
                                                help_text="The tournaments you keep score of: id and name.")
    directed_tournaments = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    directed_tournaments_detail = detail_field("directed_tournaments", many=True,
                                               help_text="The tournaments you direct: id and name.")

    class Meta(UserSerializer.Meta):
        fields = [*UserSerializer.Meta.fields, "managed_clubs", "managed_clubs_detail", "organized_tournaments",
                  "organized_tournaments_detail", "scorekept_tournaments", "scorekept_tournaments_detail",
                  "directed_tournaments", "directed_tournaments_detail"]
        read_only_fields = fields


class MeView(APIView):
    """Who you are, and what you manage, organize and keep score of."""

    permission_classes = [IsAuthenticated]

    @extend_schema(summary="The signed-in user and their roles", responses=MeSerializer)
    def get(self, request):
        return Response(MeSerializer(request.user).data)
