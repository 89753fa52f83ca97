"""The sentences of the stages' refusals (tournaments.stages and tournaments/services/stages.py), part of
``tournaments.refusals.SENTENCES``: a code, or (code, reason), to its sentence with the params' names."""

from django.utils.translation import gettext_lazy as _

STAGE_SENTENCES = {
    "pool_count": _("%(entrants)s entrants make 1 to %(most)s pools of two or more, not %(pools)s."),
    "stage_capacity": _("The number of entrants does not fit the stage."),
    ("stage_capacity", "above"): _("This stage takes at most %(limit)s entrants, not %(entrants)s."),
    ("stage_capacity", "below"): _("This stage needs at least %(limit)s entrants, not %(entrants)s."),
    "qualification_invalid": _("This qualification rule does not fit the stage."),
    ("qualification_invalid", "unknown"): _("The qualification rules are %(known)s, not %(rule)s."),
    ("qualification_invalid", "count"): _("A stage of %(entrants)s entrants sends on 1 to %(entrants)s of them, not "
                                          "%(count)s."),
    ("qualification_invalid", "per_pool"): _("Each pool sends on its first 1 to %(smallest)s (the smallest pool's "
                                             "size), not %(per_pool)s."),
    ("qualification_invalid", "next_place"): _("At most %(pools)s entrants can go on from the next place (one from "
                                               "each pool that has one), not %(best_next)s."),
    ("qualification_invalid", "format"): _("The rule %(rule)s does not suit a stage of format %(format)s."),
    ("qualification_invalid", "missing"): _("Stage %(stage)s needs a qualification rule into the next stage."),
    ("qualification_invalid", "last_stage"): _("Stage %(stage)s is the last: no qualification rule leads on from it."),
    "carry_over_invalid": _("This carry-over is not possible."),
    ("carry_over_invalid", "part"): _("What carries over is one of %(known)s, not %(part)s."),
    ("carry_over_invalid", "knockout"): _("Nothing carries over into a knockout."),
    "stage_inputs_invalid": _("The stage's data are not valid at %(field)s."),
    "multi_stage": _("The event has more than one stage: %(fields)s describe its stage 1 and can no longer change "
                     "here."),
    "stage_not_running": _("No stage of this event is running: a round is paired in the running stage."),
    "stage_previous_open": _("Stage %(previous)s is not closed yet: a stage starts once the one before it is closed."),
    "stage_closed": _("Stage %(stage)s is closed: its results change once a director or an organizer reopens it."),
    "stage_status": _("Stage %(stage)s is %(status)s: this is not possible now."),
    "stage_unplayed": _("Stage %(stage)s has no finished round yet: there is nothing to close."),
    "stage_reopen_refused": _("Stage %(stage)s cannot reopen: stage %(next)s has results already."),
    "stage_round_unpublished": _("Round %(round)s of stage %(stage)s is not published yet: publish it first, so that "
                                 "the stage closes on the standings everyone sees."),
}
