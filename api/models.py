"""The API's sign-in tokens: django-rest-knox tokens with a device name (issue #11, point 7).

Only a digest of each key is stored; the key is shown once, in the answer of ``POST /api/v1/auth/token/``.
Each token expires (``TOKEN_TTL_DAYS``, renewed on use up to ``TOKEN_MAX_TTL_DAYS``), one per user
and device: signing in again from the same device replaces that device's token.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken


class AuthToken(AbstractAuthToken):
    """A knox token (``KNOX_TOKEN_MODEL``) named after the device it was issued to."""

    device = models.CharField(_("device"), max_length=100, blank=True, default="")

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created"]
        indexes = [models.Index(fields=["user", "device"], name="api_token_user_device")]

    def __str__(self) -> str:
        return f"{self.token_key}… {self.user} {self.device}".strip()
