"""Token authentication: django-rest-knox's, reading one row per request.

knox's own class deletes every expired token of the user on each request (one more query for
every authenticated call); here a request reads only its own token, as DRF's TokenAuthentication
did, and expired tokens are deleted when their user signs in or lists their tokens
(``api.tokens.tokens_purge_expired``).
"""

from django.utils import timezone
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.signals import token_expired


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>``; an expired token is refused (401) and deleted."""

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
