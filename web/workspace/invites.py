"""Invitations: an organizer's signed link that makes its holder a scorekeeper or a co-organizer of one tournament.

The link is a ``django.core.signing`` token (the site's SECRET_KEY, a salt of its own) carrying the tournament,
the role and the organizer who made it, with its time: it is valid for ``settings.INVITE_MAX_AGE`` seconds
(7 days by default). No table keeps it, so a link is not single-use: an organizer may pass one link to the
whole team of scorekeepers. It is withdrawn early by removing its organizer from the tournament: a link is
honoured only while the organizer who made it still organizes the tournament.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import access
from tournaments.models import Tournament
from tournaments.services.tournaments import tournament_update

log = logging.getLogger(__name__)

SALT = "web.workspace.invite"
ROLES = ("scorekeeper", "director", "organizer")
#: The tournament's many-to-many field each role is kept in.
ROLE_FIELDS = {"scorekeeper": "scorekeepers", "director": "directors", "organizer": "organizers"}


class InviteInvalid(Exception):
    """A link that cannot be honoured; ``reason`` is "expired", "invalid" or "withdrawn"."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Invite:
    tournament: Tournament
    role: str
    inviter: object


def make_token(*, tournament: Tournament, role: str, inviter) -> str:
    """Return the signed, timestamped token of an invitation to ``tournament`` as ``role``."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    return signing.dumps({"t": tournament.pk, "r": role, "b": inviter.pk}, salt=SALT, compress=True)


def invite_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("ws:invite-accept", args=[token]))


def read_token(token: str) -> Invite:
    """Return the invitation a token stands for; raise ``InviteInvalid`` for a tampered, expired or withdrawn one."""
    try:
        data = signing.loads(token, salt=SALT, max_age=settings.INVITE_MAX_AGE)
    except signing.SignatureExpired:
        raise InviteInvalid("expired") from None
    except (signing.BadSignature, ValueError, TypeError):
        raise InviteInvalid("invalid") from None
    if not isinstance(data, dict) or data.get("r") not in ROLES:
        raise InviteInvalid("invalid")
    tournament = Tournament.objects.select_related("club").filter(pk=data.get("t")).first()
    inviter = get_user_model().objects.filter(pk=data.get("b"), is_active=True).first()
    if tournament is None or inviter is None or not access.is_organizer(inviter, tournament.pk):
        raise InviteInvalid("withdrawn")
    return Invite(tournament, data["r"], inviter)


def has_role(user, invite: Invite) -> bool:
    field = getattr(invite.tournament, ROLE_FIELDS[invite.role])
    return field.filter(pk=user.pk).exists()


def invite_accept(*, invite: Invite, user) -> bool:
    """Give ``user`` the invitation's role through ``tournament_update``; return False if they had it already."""
    field = ROLE_FIELDS[invite.role]
    with transaction.atomic():
        # Locked first, so two invitees accepting at once both end up in the list.
        tournament = Tournament.objects.select_for_update().get(pk=invite.tournament.pk)
        people = list(getattr(tournament, field).all())
        if any(p.pk == user.pk for p in people):
            return False
        tournament_update(tournament=tournament, user=invite.inviter, **{field: [*people, user]})
    return True


def email_enabled() -> bool:
    """Tell whether an e-mail backend is configured (the dummy backend is "none")."""
    return settings.EMAIL_BACKEND != "django.core.mail.backends.dummy.EmailBackend"


def send_invite(*, invite_link: str, tournament: Tournament, role: str, inviter, email: str) -> bool:
    """E-mail an invitation link; return False (and log why) when it could not be sent."""
    who = inviter.get_full_name() or inviter.get_username()
    if role == "organizer":
        subject = _("%(who)s invites you to organize %(tournament)s") % {"who": who, "tournament": tournament.name}
    elif role == "director":
        subject = _("%(who)s invites you to direct %(tournament)s") % {"who": who, "tournament": tournament.name}
    else:
        subject = _("%(who)s invites you to keep score at %(tournament)s") % {"who": who,
                                                                            "tournament": tournament.name}
    days = max(1, settings.INVITE_MAX_AGE // 86400)
    body = _("Open this link to accept (it is valid for %(days)s days); you can make an account there if you "
             "have none:\n\n%(link)s\n\nManille Tournaments") % {"days": days, "link": invite_link}
    try:
        send_mail(subject, body, None, [email])
    except Exception:  # noqa: BLE001 (a mail server down must not lose the link, which the page shows)
        log.exception("invitation e-mail to %s not sent", email)
        return False
    return True
