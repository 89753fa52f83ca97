"""The workspace routes of clubs: a club's players and teams, their import and export (``clubs.py``)."""

from django.urls import path

from . import clubs

urlpatterns = [
    path("clubs/<int:club_id>/", clubs.club, name="club"),
    path("clubs/<int:club_id>/teams/", clubs.club_teams_page, name="club-teams"),
    path("clubs/<int:club_id>/players/new/", clubs.player_new, name="club-player-new"),
    path("clubs/<int:club_id>/players/<int:player_id>/", clubs.player_edit, name="club-player"),
    path("clubs/<int:club_id>/players/<int:player_id>/retire/", clubs.player_retire_view, name="club-player-retire"),
    path("clubs/<int:club_id>/players/<int:player_id>/delete/", clubs.player_delete_view, name="club-player-delete"),
    path("clubs/<int:club_id>/teams/new/", clubs.team_new, name="club-team-new"),
    path("clubs/<int:club_id>/teams/<int:team_id>/", clubs.team_edit, name="club-team"),
    path("clubs/<int:club_id>/teams/<int:team_id>/retire/", clubs.team_retire_view, name="club-team-retire"),
    path("clubs/<int:club_id>/teams/<int:team_id>/delete/", clubs.team_delete_view, name="club-team-delete"),
    path("clubs/<int:club_id>/import/", clubs.club_import, name="club-import"),
    path("clubs/<int:club_id>/export/<slug:kind>.<slug:fmt>", clubs.club_export, name="club-export"),
]
