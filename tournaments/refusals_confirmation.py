"""The refusals of results confirmed by the opponents (tournaments/services/confirmation.py): their sentences and
their place in the catalogue, merged into ``tournaments.refusals``' ``SENTENCES`` and ``CATALOGUE``."""

from django.utils.translation import gettext_lazy as _

CONFIRMATION_SENTENCES = {
    "result_locked": _("Only a director can change this result now."),
    ("result_locked", "director"): _("This result is confirmed, disputed or decided by a director: only a "
                                     "director can change it now."),
    ("result_locked", "why"): _("Say why you change this result: it is confirmed, disputed or final."),
    ("result_locked", "other_phone"): _("This result waits for the opponents' confirmation: only the phone that "
                                        "entered it can correct it now."),
    "results_unconfirmed": _("%(count)s results of round %(round)s wait for their confirmation: have them "
                             "confirmed or settled first (an organizer may pair anyway)."),
    "result_not_entered": _("This result does not wait for a confirmation now."),
    "confirmation_off": _("This tournament's results need no confirmation."),
    "result_own_entry": _("You entered this result: someone of the other side confirms it."),
    "result_own_side": _("Your side entered this result: someone of the other side confirms it."),
    "personal_code_wrong": _("This name and personal code do not go together: check the code on your entry "
                             "slip."),
    "not_at_this_table": _("You do not play at table %(table)s of round %(round)s."),
    "table_code_required": _("Type the code of table %(table)s (on its score sheet) first."),
    "too_many_codes": _("Too many wrong codes: wait %(seconds)s seconds, then try again."),
    "reason_required": _("Say why, in a few words."),
    "not_director": _("Only a director of this tournament can do this."),
}

CONFIRMATION_CATALOGUE = {
    **{code: ("service", 409) for code in (
        "result_locked", "results_unconfirmed", "result_not_entered", "confirmation_off")},
    **{code: ("service", 403) for code in (
        "result_own_entry", "result_own_side", "personal_code_wrong", "not_at_this_table", "table_code_required",
        "not_director")},
    "too_many_codes": ("service", 429),
    "reason_required": ("service", 400),
}
