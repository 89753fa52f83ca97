"""The workspace routes of organize: one tournament's dashboard, entries, rounds and pairing, under /my/t/<slug>/."""

from django.urls import path

from . import exports, organize, organize_desk, organize_draw, organize_entries, organize_players, organize_rounds

urlpatterns = [
    path("t/<slug:slug>/", organize.dashboard, name="tournament"),
    path("t/<slug:slug>/publish/", organize.publish, name="tournament-publish"),
    path("t/<slug:slug>/status/", organize.set_status, name="tournament-status"),
    path("t/<slug:slug>/entries.csv", exports.export_entries, name="export-entries"),
    path("t/<slug:slug>/results.csv", exports.export_results, name="export-results"),
    path("t/<slug:slug>/standings.csv", exports.export_standings, name="export-standings"),
    path("t/<slug:slug>/pair/", organize.pair, name="pair"),
    path("t/<slug:slug>/pairing/<uuid:task_id>/", organize.pair_task, name="pair-task"),
    path("t/<slug:slug>/pairing/<uuid:task_id>/status/", organize.pair_task_status, name="pair-task-status"),
    path("t/<slug:slug>/entries/", organize_entries.entries, name="entries"),
    path("t/<slug:slug>/entries/add/", organize_entries.entry_add, name="entry-add"),
    path("t/<slug:slug>/entries/new-team/", organize_entries.entry_new_team, name="entry-new-team"),
    path("t/<slug:slug>/entries/seeds/", organize_entries.entry_seeds, name="entry-seeds"),
    path("t/<slug:slug>/entries/<int:entry_id>/withdraw/", organize_entries.entry_withdraw_view,
         name="entry-withdraw"),
    path("t/<slug:slug>/entries/<int:entry_id>/remove/", organize_entries.entry_remove_view, name="entry-remove"),
    path("t/<slug:slug>/forbidden/", organize_entries.forbidden_add, name="forbidden-add"),
    path("t/<slug:slug>/forbidden/<int:pair_id>/remove/", organize_entries.forbidden_remove,
         name="forbidden-remove"),
    path("t/<slug:slug>/players/enter/", organize_players.player_enter, name="player-enter"),
    path("t/<slug:slug>/players/new/", organize_players.player_new, name="player-new"),
    path("t/<slug:slug>/players/numbers/", organize_players.player_numbers, name="player-numbers"),
    path("t/<slug:slug>/players/<int:entry_id>/", organize_players.player_set, name="player-set"),
    path("t/<slug:slug>/kept-apart/", organize_players.kept_apart_add_view, name="kept-apart-add"),
    path("t/<slug:slug>/kept-apart/<int:pair_id>/remove/", organize_players.kept_apart_remove_view,
         name="kept-apart-remove"),
    path("t/<slug:slug>/desk/", organize_desk.desk, name="desk"),
    path("t/<slug:slug>/desk/take/", organize_desk.desk_take, name="desk-take"),
    path("t/<slug:slug>/desk/<int:action_id>/revert/", organize_desk.desk_revert, name="desk-revert"),
    path("t/<slug:slug>/rounds/<int:number>/", organize_rounds.round_view, name="round"),
    path("t/<slug:slug>/rounds/<int:number>/change/", organize_rounds.round_change, name="round-change"),
    path("t/<slug:slug>/rounds/<int:number>/redraw/", organize_draw.round_redraw_view, name="round-redraw"),
    path("t/<slug:slug>/rounds/<int:number>/clock/", organize_draw.round_clock_view, name="round-clock"),
    path("t/<slug:slug>/rounds/<int:number>/clock/state/", organize_draw.round_clock_state,
         name="round-clock-state"),
]
