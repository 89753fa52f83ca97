"""The public site's URLs: one view a page, tournaments by slug."""

from django.urls import include, path

from . import print_views, views

app_name = "web"

tournament = [
    path("", views.tournament, name="tournament"),
    path("standings/", views.standings, name="standings"),
    path("standings/print/", print_views.standings_print, name="standings-print"),
    path("standings.pdf", print_views.standings_pdf, name="standings-pdf"),
    path("clubs/", views.clubs, name="clubs"),
    path("rounds/", views.rounds, name="rounds"),
    path("rounds/<int:number>/", views.rounds, name="round"),
    path("rounds/<int:number>/print/", print_views.round_print, name="round-print"),
    path("rounds/<int:number>.pdf", print_views.round_pdf, name="round-pdf"),
    path("rounds/<int:number>/sheets/", print_views.round_sheets, name="round-sheets"),
    path("rounds/<int:number>/sheets.pdf", print_views.round_sheets_pdf, name="round-sheets-pdf"),
    path("teams/", views.teams, name="teams"),
    path("teams/<int:team_id>/", views.team, name="team"),
    path("matches/<int:match_id>/", views.match, name="match"),
    path("matches/<int:match_id>/sheet/", print_views.match_sheet, name="match-sheet"),
    path("matches/<int:match_id>/sheet.pdf", print_views.match_sheet_pdf, name="match-sheet-pdf"),
    path("wall/", views.wall, name="wall"),
    path("stages/", views.stages, name="stages"),
    path("stages/<int:number>/", views.stages, name="stage"),
    path("stages/ranking/", views.event_ranking, name="event-ranking"),
    path("stages/<int:number>/bracket/print/", print_views.bracket_print, name="bracket-print"),
    # A later stage's rounds (round numbers count per stage; rounds/<n>/ is stage 1's).
    path("stages/<int:stage>/rounds/<int:number>/", views.rounds, name="stage-round"),
    path("stages/<int:stage>/rounds/<int:number>/print/", print_views.round_print, name="stage-round-print"),
    path("stages/<int:stage>/rounds/<int:number>.pdf", print_views.round_pdf, name="stage-round-pdf"),
    path("stages/<int:stage>/rounds/<int:number>/sheets/", print_views.round_sheets, name="stage-round-sheets"),
    path("stages/<int:stage>/rounds/<int:number>/sheets.pdf", print_views.round_sheets_pdf,
         name="stage-round-sheets-pdf"),
    path("stages/<int:stage>/rounds/<int:number>/seat/", views.seat, name="stage-round-seat"),
    path("stages/<int:stage>/rounds/<int:number>/seats/print/", print_views.seats_print,
         name="stage-round-seats-print"),
    path("stages/<int:stage>/rounds/<int:number>/seats.pdf", print_views.seats_pdf, name="stage-round-seats-pdf"),
    # Individual events: where do I sit (the current round, or any), the door's list, the players.
    path("seat/", views.seat, name="seat"),
    path("rounds/<int:number>/seat/", views.seat, name="round-seat"),
    path("rounds/<int:number>/seats/print/", print_views.seats_print, name="round-seats-print"),
    path("rounds/<int:number>/seats.pdf", print_views.seats_pdf, name="round-seats-pdf"),
    path("players/", views.players, name="players"),
    path("players/<int:player_id>/", views.player, name="player"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("variants/", views.variants, name="variants"),
    path("variants/<slug:slug>/", views.variant, name="variant"),
    path("t/<slug:slug>/", include(tournament)),
    path("", include("web.live_urls")),
]
