"""The workspace routes of entry: a scorekeeper's matches, the entry page and its JSON endpoints, the Service Worker;
and the same entry page reached by a table's code, without an account (``table_code.py``)."""

from django.urls import path

from . import desk, desk_lock, entry, table_code

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
    path("t/<slug:slug>/table/", table_code.table_code, name="table-code"),
    path("t/<slug:slug>/table/<int:match_id>/", table_code.table_match, name="table-match"),
    path("t/<slug:slug>/table/<int:match_id>/state/", table_code.table_state, name="table-state"),
    path("t/<slug:slug>/table/<int:match_id>/preview/", table_code.table_preview, name="table-preview"),
    path("t/<slug:slug>/table/<int:match_id>/hands/", table_code.table_hand, name="table-hand"),
    path("t/<slug:slug>/table/<int:match_id>/correct/", table_code.table_correct, name="table-correct"),
    path("t/<slug:slug>/table/<int:match_id>/delete/", table_code.table_delete, name="table-delete"),
    path("t/<slug:slug>/table/<int:match_id>/game/", table_code.table_game, name="table-game"),
    path("t/<slug:slug>/table/<int:match_id>/confirm/", table_code.table_confirm, name="table-confirm"),
    path("t/<slug:slug>/desk/", desk.desk, name="desk"),
    path("t/<slug:slug>/desk/rows/", desk.desk_rows, name="desk-rows"),
    path("t/<slug:slug>/desk/<int:match_id>/decide/", desk.desk_decide, name="desk-decide"),
    path("t/<slug:slug>/desk/codes/", desk.desk_codes, name="desk-codes"),
    path("t/<slug:slug>/desk/lock/", desk_lock.desk_lock, name="desk-lock"),
    path("t/<slug:slug>/desk/unlock/", desk_lock.desk_unlock, name="desk-unlock"),
]
