"""The workspace routes of entry: a scorekeeper's matches, the entry page and its JSON endpoints, the Service Worker."""

from django.urls import path

from . import entry

urlpatterns = [
    path("sw.js", entry.service_worker, name="entry-sw"),
    path("t/<slug:slug>/score/", entry.score, name="score"),
    path("t/<slug:slug>/score/<int:match_id>/", entry.score_match, name="score-match"),
    path("t/<slug:slug>/score/<int:match_id>/state/", entry.score_state, name="score-state"),
    path("t/<slug:slug>/score/<int:match_id>/preview/", entry.score_preview, name="score-preview"),
    path("t/<slug:slug>/score/<int:match_id>/hands/", entry.score_hand, name="score-hand"),
    path("t/<slug:slug>/score/<int:match_id>/correct/", entry.score_correct, name="score-correct"),
    path("t/<slug:slug>/score/<int:match_id>/delete/", entry.score_delete, name="score-delete"),
    path("t/<slug:slug>/score/<int:match_id>/game/", entry.score_game_start, name="score-game"),
]
