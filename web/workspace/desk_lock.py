"""The director's desk on a shared tablet (docs/confirmation.md): a director sets a PIN and the tablet's session
enters **desk mode**: only the desk is open (its list, its poll, its decisions), every other page of the site
and the API leads back to it, signing out included; settling a result, confirming one on paper and leaving
desk mode need the PIN. Wrong PINs are counted, per tablet and per tournament (``WRONG_PINS``): past the
limit the PIN is refused until the window passes. The PIN is kept hashed in the tablet's session only.
"""

from __future__ import annotations

import re
import time

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.hashers import check_password, make_password
from django.core.cache import cache
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import access
from tournaments.models import Tournament

SESSION_KEY = "desk_lock"
PIN_PATTERN = re.compile(r"^[0-9]{4,8}$")
#: Wrong PINs allowed in a window: (count, seconds), per tablet (its session) and per tournament.
WRONG_PINS = (5, 600)


def lock_of(request) -> dict | None:
    """The session's desk mode: ``{"slug", "pin"}`` (the PIN hashed), or None."""
    session = getattr(request, "session", None)
    return session.get(SESSION_KEY) if session is not None else None


def _keys(request, lock: dict) -> list[str]:
    window = int(time.time()) // WRONG_PINS[1]
    return [f"desk-pin:s:{request.session.session_key}:{window}", f"desk-pin:t:{lock['slug']}:{window}"]


def pin_wait(request, lock: dict) -> int | None:
    """Seconds to wait before another PIN is tried (too many wrong ones), or None."""
    if any((cache.get(key) or 0) >= WRONG_PINS[0] for key in _keys(request, lock)):
        return WRONG_PINS[1] - int(time.time()) % WRONG_PINS[1]
    return None


def pin_check(request, pin: str) -> str | None:
    """Check a PIN against the session's desk mode: None when right, else the refusal in words (counted)."""
    lock = lock_of(request)
    if lock is None:
        return None
    wait = pin_wait(request, lock)
    if wait is not None:
        return _("Too many wrong PINs: try again in %(minutes)s min.") % {"minutes": -(-wait // 60)}
    if PIN_PATTERN.match(pin or "") and check_password(pin, lock["pin"]):
        return None
    for key in _keys(request, lock):
        if not cache.add(key, 1, WRONG_PINS[1] + 5):
            try:
                cache.incr(key)
            except ValueError:
                cache.add(key, 1, WRONG_PINS[1] + 5)
    return _("Wrong PIN.")


@login_required
@require_POST
def desk_lock(request, slug):
    """Put this tablet in desk mode for the tournament, with the PIN the director chose (4 to 8 digits, twice)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not access.is_director(request.user, tournament.pk):
        raise Http404
    pin, again = request.POST.get("pin", ""), request.POST.get("pin_again", "")
    if not PIN_PATTERN.match(pin):
        messages.error(request, _("The PIN is 4 to 8 digits."))
    elif pin != again:
        messages.error(request, _("The two PINs differ."))
    elif lock_of(request) is None:
        request.session[SESSION_KEY] = {"slug": tournament.slug, "pin": make_password(pin)}
        messages.success(request, _("Desk mode: only the desk is open on this device until the PIN is given."))
    return redirect("ws:desk", tournament.slug)


@require_POST
def desk_unlock(request, slug):
    """Leave desk mode with the PIN."""
    lock = lock_of(request)
    if lock is None:
        return redirect("ws:desk", slug)
    refused = pin_check(request, request.POST.get("pin", ""))
    if refused:
        messages.error(request, refused)
        return redirect("ws:desk", lock["slug"])
    del request.session[SESSION_KEY]
    messages.success(request, _("Desk mode is over on this device."))
    return redirect("ws:desk", lock["slug"])


class DeskLockMiddleware:
    """In desk mode only the desk's own addresses (and the static files) answer; any other leads back to it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings

        # Only a request with a session cookie is read (a token's API request, a first visit: no session to load).
        lock = lock_of(request) if settings.SESSION_COOKIE_NAME in request.COOKIES else None
        if lock is not None and not self._allowed(request.path, lock["slug"]):
            desk = reverse("ws:desk", args=[lock["slug"]])
            if request.path.startswith("/api/") or request.method not in ("GET", "HEAD"):
                return HttpResponseForbidden(_("This device is in desk mode: give the PIN on the desk to leave it."))
            return redirect(desk)
        return self.get_response(request)

    @staticmethod
    def _allowed(path: str, slug: str) -> bool:
        from django.conf import settings

        desk = reverse("ws:desk", args=[slug])
        if path.startswith(settings.STATIC_URL) or path.startswith("/i18n/"):
            return True
        if not path.startswith(desk):
            return False
        rest = path[len(desk):]
        return rest in ("", "rows/", "unlock/") or re.fullmatch(r"[0-9]+/decide/", rest) is not None
