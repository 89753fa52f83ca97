"""Sign-in protection shared by the token endpoint, the admin and the site's sign-in page (issue #11, point 6).

- ``client_ip``: the client's address, trusting ``X-Forwarded-For`` only as far as ``TRUSTED_PROXIES``
  proxies (none by default: the socket's address). DRF's throttles read ``NUM_PROXIES``, set to the same
  number, so the throttle and the lockout agree on who the client is.
- ``LockoutHandler``: axes' database handler, with a higher limit for an address than for an account;
- ``LockoutBackend``: django-axes' standalone backend (first in ``AUTHENTICATION_BACKENDS``); it refuses
  a locked-out account or address before any password is checked.
- ``lockout_response``: what a locked-out sign-in answers: the API's JSON error (429 ``locked_out``)
  under ``/api/``, a page in the site's look elsewhere (the admin, ``/my/login/``), never a 500.
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _


def trusted_proxies() -> int:
    return int(getattr(settings, "TRUSTED_PROXIES", 0) or 0)


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: ``REMOTE_ADDR``, or the address the N-th trusted proxy saw (as DRF's ``get_ident``)."""
    meta = getattr(request, "META", {})
    remote_addr = meta.get("REMOTE_ADDR")
    proxies = trusted_proxies()
    xff = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not xff:
        return remote_addr
    addrs = [a.strip() for a in xff.split(",") if a.strip()]
    if not addrs:
        return remote_addr
    return addrs[-min(proxies, len(addrs))]


class LockoutHandler(AxesDatabaseHandler):
    """axes' database handler with a limit of its own for an address (``LOGIN_FAILURE_LIMIT_ADDRESS``).

    axes counts the failures of the account and, separately, of the address, and holds both to one
    limit. A club's hall signs in from one address behind its Wi-Fi: thirty scorekeepers' typos
    there must not lock the hall out, so the address's limit sits well above the account's. Each
    count is scaled to the account's limit (``AXES_FAILURE_LIMIT``), which axes compares it with:
    an address reaches it exactly when its own failures reach the address's limit.
    """

    def get_failures(self, request, credentials=None) -> int:
        account_limit = max(1, int(settings.AXES_FAILURE_LIMIT))
        address_limit = max(1, int(getattr(settings, "LOGIN_FAILURE_LIMIT_ADDRESS", account_limit)))
        worst = 0
        # One queryset per AXES_LOCKOUT_PARAMETERS entry, in its order: [["username"], ["ip_address"]].
        for parameters, attempts in zip(settings.AXES_LOCKOUT_PARAMETERS, self.get_user_attempts(request, credentials),
                                        strict=True):
            failures = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            if list(parameters) == ["ip_address"]:
                failures = failures * account_limit // address_limit
            worst = max(worst, failures)
        return worst


class LockoutBackend(AxesStandaloneBackend):
    """django-axes' lockout check, tolerant of a request-less ``authenticate()``.

    Every HTTP sign-in (the token endpoint, the admin, the site's sign-in page) passes its request
    and is checked. Code that authenticates without a request (a shell, a management command, the
    test client's ``login()``) cannot be tied to an address: it is neither counted nor locked,
    instead of failing with axes' ``AxesBackendRequestParameterRequired``.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def cool_off_seconds() -> int:
    cool_off = getattr(settings, "AXES_COOLOFF_TIME", None)
    if cool_off is None:
        return 0
    if hasattr(cool_off, "total_seconds"):
        return int(cool_off.total_seconds())
    return int(float(cool_off) * 3600)  # axes reads a bare number as hours


def lockout_message() -> str:
    minutes = max(1, round(cool_off_seconds() / 60))
    return _("Too many failed sign-ins from this account or address. Try again in %(minutes)s minutes.") % {
        "minutes": minutes}


def lockout_body() -> dict:
    """The API's error shape for a locked-out sign-in."""
    return {"type": "client_error", "errors": [{"code": "locked_out", "detail": lockout_message(), "attr": None}]}


def lockout_response(request, original_response=None, credentials=None) -> HttpResponse:
    """axes' ``AXES_LOCKOUT_CALLABLE``: JSON under the API's prefix, the site's page elsewhere; 429 with Retry-After."""
    status = getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429)
    prefix = getattr(settings, "API_PATH_PREFIX", "/api/")
    if request.path.startswith(prefix):
        response = JsonResponse(lockout_body(), status=status)
    else:
        html = render_to_string("locked_out.html", {"message": lockout_message()}, request=request)
        response = HttpResponse(html, status=status)
    seconds = cool_off_seconds()
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
