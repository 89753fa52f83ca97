"""Token authentication: django-rest-knox's, reading one row per request.

knox's own class deletes every expired token of the user on each request (one more query for
every authenticated call); here a request reads only its own token, as DRF's TokenAuthentication
did, and expired tokens are deleted when their user signs in or lists their tokens
(``api.tokens.tokens_purge_expired``).

The token and its user are read by one statement written once per process (``_tokens_sql``): building
and compiling knox's queryset anew cost more than running it, on every authenticated request.
"""

import binascii
import functools
from hmac import compare_digest

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions

from tournaments.services.rows import Columns, cursor, qn

from .models import AuthToken

_TOKEN, _USER = Columns(AuthToken, "a"), Columns(get_user_model(), "u")


@functools.cache
def _tokens_sql() -> str:
    user = get_user_model()._meta
    return (f"SELECT {_TOKEN.select()}, {_USER.select()} FROM {qn(AuthToken._meta.db_table)} a "
            f"JOIN {qn(user.db_table)} u ON u.{qn(user.pk.column)} = a.{qn('user_id')} "
            f"WHERE a.{qn('token_key')} = %s ORDER BY a.{qn('created')} DESC")


def _tokens(token_key: str) -> list[AuthToken]:
    """The tokens of ``token_key`` with their users (``select_related``), newest first, as knox's queryset."""
    with cursor() as c:
        c.execute(_tokens_sql(), [token_key])
        rows = c.fetchall()
    tokens = []
    for row in rows:
        token = _TOKEN.build(row)
        AuthToken.user.field.set_cached_value(token, _USER.build(row, _TOKEN.width))
        tokens.append(token)
    return tokens


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>``; an expired token is refused (401) and deleted."""

    def authenticate_credentials(self, token):
        """knox's ``authenticate_credentials`` over ``_tokens`` (the same checks in the same order)."""
        msg = _("Invalid token.")
        try:
            token = token.decode("utf-8")
        except UnicodeDecodeError:  # a header's bytes that are no UTF-8 (``caf\xe9``) hold no token of ours
            raise exceptions.AuthenticationFailed(msg) from None
        if "\x00" in token:  # nor a null character, which PostgreSQL refuses in text
            raise exceptions.AuthenticationFailed(msg)
        for auth_token in _tokens(token[:CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(token)
            except (TypeError, binascii.Error):
                raise exceptions.AuthenticationFailed(msg) from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise exceptions.AuthenticationFailed(msg)

    def _cleanup_token(self, auth_token) -> bool:
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


try:  # the schema: the same `Authorization: Token <key>` scheme DRF's tokens had
    from drf_spectacular.extensions import OpenApiAuthenticationExtension
    from drf_spectacular.plumbing import build_bearer_security_scheme_object

    class TokenScheme(OpenApiAuthenticationExtension):
        target_class = TokenAuthentication
        name = "tokenAuth"

        def get_security_definition(self, auto_schema):
            return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")
except ImportError:  # pragma: no cover - drf-spectacular is a dependency
    pass
