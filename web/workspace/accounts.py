"""The workspace's accounts: sign in and out, the password, "My tournaments", the tournament form, invitations."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tournaments import access, refusals
from tournaments.services.errors import Conflict, InvalidFields
from tournaments.services.tournaments import tournament_create, tournament_update
from tournaments import vocabulary

from . import invites
from .common import organized_tournament_or_404
from .forms import InviteeCreationForm, InviteForm, TournamentForm

STATUS_ORDER = Case(When(status="running", then=Value(0)), When(status="draft", then=Value(1)),
                    default=Value(2), output_field=IntegerField())


def url_or_none(name: str, *args) -> str | None:
    """Return a workspace URL, or None while the part that serves it is not there yet."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


class LoginView(auth_views.LoginView):
    """Django's sign-in (it passes the request to ``authenticate``, as the lockout needs) in the site's look."""

    template_name = "web/workspace/accounts/login.html"
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """Sign out (POST only, Django's); back to the public site."""


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "web/workspace/accounts/password_change.html"
    success_url = reverse_lazy("ws:home")

    def form_valid(self, form):
        response = super().form_valid(form)
        messages.success(self.request, _("Your password was changed."))
        return response


def _tournament_rows(qs, role: str, directed: frozenset = frozenset()) -> list[dict]:
    rows = []
    for t in qs.select_related("club").order_by(STATUS_ORDER, "-starts_on", "-created_at", "name"):
        row = {"tournament": t, "variant": vocabulary.variant_name(t.variant),
               "status": vocabulary.TOURNAMENT_STATUS.get(t.status, t.status), "role": role,
               "public_url": reverse("web:tournament", args=[t.slug])}
        if role == "organizer":
            row["url"] = url_or_none("ws:tournament", t.slug) or reverse("ws:tournament-edit", args=[t.slug])
            row["edit_url"] = reverse("ws:tournament-edit", args=[t.slug])
            row["invite_url"] = reverse("ws:invite", args=[t.slug])
            row["score_url"] = url_or_none("ws:score", t.slug)
        else:
            row["url"] = url_or_none("ws:score", t.slug) or row["public_url"]
        if t.confirmation == t.Confirmation.OPPONENTS and (role == "organizer" or t.pk in directed):
            row["desk_url"] = reverse("ws:desk", args=[t.slug])  # the director's desk (docs/confirmation.md)
        rows.append(row)
    return rows


@login_required
def home(request):
    """My tournaments: those the user organizes, those they keep score for, and the clubs they manage."""
    user = request.user
    organized = access.organized_tournaments(user)
    scorekept = access.scorekept_tournaments(user).exclude(pk__in=organized.values("pk"))
    clubs = [{"club": c, "url": url_or_none("ws:club", c.pk)} for c in access.managed_clubs(user).order_by("name")]
    return render(request, "web/workspace/accounts/home.html", {
        "organized": _tournament_rows(organized, "organizer"),
        "scorekept": _tournament_rows(scorekept, "scorekeeper",
                                      frozenset(access.directed_tournaments(user).values_list("pk", flat=True))),
        "clubs": clubs,
        "can_create": access.can_create_tournament(user),
        "unscoped": access.is_unscoped(user),
    })


def _form_page(request, form, tournament=None):
    return render(request, "web/workspace/tournament_form.html", {"form": form, "tournament": tournament})


def _after_save(tournament):
    return redirect(url_or_none("ws:tournament", tournament.slug) or reverse("ws:home"))


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    if not access.can_create_tournament(request.user):
        raise Http404
    form = TournamentForm(request.POST if request.method == "POST" else None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(user=request.user, **form.service_fields())
        except InvalidFields as exc:  # what the form checked, changed meanwhile (a tournament of this name saved)
            _refused(form, exc)
        else:
            messages.success(request, _("The tournament %(name)s was created.") % {"name": tournament.name})
            return _after_save(tournament)
    return _form_page(request, form)


def _refused(form, exc: InvalidFields) -> None:
    for code, field, params in exc.errors:
        form.add_error(field if field in form.fields else None, refusals.validation_error(code, params))


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request, slug):
    tournament = organized_tournament_or_404(request.user, slug)
    form = TournamentForm(request.POST if request.method == "POST" else None, user=request.user,
                          tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_update(tournament=tournament, user=request.user, **form.service_fields())
        except Conflict:
            form.add_error(None, _("A round is paired already: the variant, format, rounds, best of and house "
                                   "options can no longer change."))
        except InvalidFields as exc:
            _refused(form, exc)
        else:
            messages.success(request, _("The tournament %(name)s was saved.") % {"name": tournament.name})
            return _after_save(tournament)
    return _form_page(request, form, tournament)


@login_required
@require_http_methods(["GET", "POST"])
def invite(request, slug):
    """An organizer makes an invitation link (shown to copy, e-mailed when an address is given)."""
    tournament = organized_tournament_or_404(request.user, slug)
    email_on = invites.email_enabled()
    form = InviteForm(request.POST if request.method == "POST" else None, email_enabled=email_on)
    ctx = {"tournament": tournament, "form": form, "email_on": email_on,
           "days": max(1, settings.INVITE_MAX_AGE // 86400)}
    if request.method == "POST" and form.is_valid():
        role = form.cleaned_data["role"]
        token = invites.make_token(tournament=tournament, role=role, inviter=request.user)
        link = invites.invite_url(request, token)
        ctx.update(link=link, role=role, form=InviteForm(initial={"role": role}, email_enabled=email_on))
        email = form.cleaned_data.get("email")
        if email:
            ctx["email"] = email
            ctx["sent"] = invites.send_invite(invite_link=link, tournament=tournament, role=role,
                                              inviter=request.user, email=email)
    return render(request, "web/workspace/accounts/invite.html", ctx)


INVALID_TEXT = {  # under a heading that says which it is
    "expired": gettext_lazy("An invitation link is valid for a limited time. Ask the organizer for a new link."),
    "invalid": gettext_lazy("It may have been cut short when it was copied: ask the organizer to send it again."),
    "withdrawn": gettext_lazy("The tournament, or the organizer who sent it, is no longer there. Ask an organizer "
                              "of the tournament for a new link."),
}


@require_http_methods(["GET", "POST"])
def invite_accept(request, token):
    """Accept an invitation: signed in, with one button; without an account, by making one here."""
    try:
        inv = invites.read_token(token)
    except invites.InviteInvalid as exc:
        return render(request, "web/workspace/accounts/invite_invalid.html",
                      {"reason": exc.reason, "text": INVALID_TEXT[exc.reason]},
                      status=410 if exc.reason in ("expired", "withdrawn") else 400)
    ctx = {"invite": inv, "token": token, "inviter": inv.inviter.get_full_name() or inv.inviter.get_username()}
    user = request.user
    if user.is_authenticated:
        if request.method == "POST":
            if invites.invite_accept(invite=inv, user=user):
                messages.success(request, _role_message(inv))
            else:
                messages.info(request, _("You already had this role in %(name)s.") % {"name": inv.tournament.name})
            return redirect("ws:home")
        ctx["already"] = invites.has_role(user, inv)
        return render(request, "web/workspace/accounts/invite_accept.html", ctx)
    form = InviteeCreationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        invites.invite_accept(invite=inv, user=user)
        messages.success(request, _role_message(inv))
        return redirect("ws:home")
    ctx["form"] = form
    ctx["login_url"] = f"{reverse('ws:login')}?{urlencode({'next': request.path})}"
    return render(request, "web/workspace/accounts/invite_accept.html", ctx)


def _role_message(inv) -> str:
    if inv.role == "organizer":
        return _("You now organize %(name)s.") % {"name": inv.tournament.name}
    return _("You now keep score at %(name)s.") % {"name": inv.tournament.name}
