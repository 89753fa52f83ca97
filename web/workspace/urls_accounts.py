"""The workspace routes of accounts: sign in and out, the password, My tournaments, the tournament form, invitations."""

from django.urls import path

from . import accounts

urlpatterns = [
    path("", accounts.home, name="home"),
    path("login/", accounts.LoginView.as_view(), name="login"),
    path("logout/", accounts.LogoutView.as_view(), name="logout"),
    path("password/", accounts.PasswordChangeView.as_view(), name="password-change"),
    path("new/", accounts.tournament_new, name="tournament-new"),
    path("t/<slug:slug>/edit/", accounts.tournament_edit, name="tournament-edit"),
    path("t/<slug:slug>/invite/", accounts.invite, name="invite"),
    path("invite/<str:token>/", accounts.invite_accept, name="invite-accept"),
]
