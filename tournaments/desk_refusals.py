"""The director's desk's refusals in words (tournaments/services/desk.py): part of ``tournaments.refusals``'
``SENTENCES`` and ``CATALOGUE``, kept apart to keep that module short."""

from django.utils.translation import gettext_lazy as _

DESK_SENTENCES = {
    "action_params": _("This action's parameters are not valid."),
    ("action_params", "choice"): _("%(field)s must be one of %(choices)s, not %(value)s."),
    ("action_params", "range"): _("%(field)s must be a whole number from %(minimum)s to %(maximum)s, not %(value)s."),
    ("action_params", "players"): _("Name the players absent: one to four ids of this table's players, each once."),
    ("action_params", "withdrawing_player"): _("Name the player who withdraws: the id of one of this table's "
                                               "players."),
    ("action_params", "penalized_player"): _("Name the player whose game points are taken off: the id of one of "
                                             "this table's players."),
    ("action_params", "not_seated"): _("Player %(value)s does not play at table %(table)s."),
    "reason_missing": _("Give the reason for this action: it is kept with it."),
    "reason_too_long": _("A reason has at most %(limit)s characters."),
    "action_target_missing": _("Name what this action acts on."),
    ("action_target_missing", "match"): _("This action acts on a match: name the match."),
    ("action_target_missing", "entry"): _("This action acts on an entry: name the team or player entered."),
    "match_other_tournament": _("Match %(match)s is not a match of this tournament."),
    "entry_other_tournament": _("Entry %(entry)s is not an entry of this tournament."),
    "match_is_bye": _("Table %(table)s is a bye: it has no opponent, and nothing for the director to decide."),
    "action_active": _("This match has an active action of this kind already (action %(action)s): revert it first."),
    "match_started": _("Table %(table)s has started playing: record a withdrawal or an adjusted result, not a "
                       "forfeit."),
    "match_not_started": _("Table %(table)s has not started: record a forfeit, not a withdrawal mid-match."),
    "match_finished": _("Table %(table)s is finished: adjust its result instead."),
    "match_not_drawn": _("Table %(table)s has not ended in a draw: there is nothing to decide."),
    "not_knockout": _("Only a drawn match of a knockout is decided by the director."),
    "action_reverted": _("This action was reverted already."),
    "clock_not_cut": _("The clock of round %(round)s was not ended early: there is no time to give back."),
    "clock_action_final": _("A decision on a round's clock is not reverted: give the round more time, or end it "
                            "again."),
}

DESK_CATALOGUE = {
    **{code: ("service", 409) for code in (
        "match_is_bye", "action_active", "match_started", "match_not_started", "match_finished", "match_not_drawn",
        "action_reverted", "clock_not_cut", "clock_action_final")},
    **{code: ("service", 400) for code in (
        "action_params", "reason_missing", "reason_too_long", "action_target_missing", "match_other_tournament",
        "entry_other_tournament", "not_knockout")},
}
