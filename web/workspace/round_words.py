"""The workspace's sentences that name a round (the dashboard's and the round page's): a knockout's round as its
bracket names it, as ``web.round_names.round_name`` does in the rounds' list beside them ("Pair the semi-finals",
"The quarter-finals still have unfinished matches."), any other round by its number and, in a later stage, its stage
("Pair stage 2, round 1"); and the director's desk's alert on a new dispute ("A new dispute: table 1 of the final.").

Each knockout round has its own sentence, not its name put into one: the article and the agreement change with it
in every language ("la finale", "les demi-finales"; "heeft", "hebben").
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Match, Round, Stage, Tournament
from web import round_names


def _knockout(stage: Stage | None, number: int, sentences) -> str | None:
    """The sentence of round ``number`` of a knockout stage, by the rounds after it (``round_names.knockout_left``):
    ``sentences`` the final's, the semi-finals', the quarter-finals', the round of 16's; None for any other round."""
    left = round_names.knockout_left(stage, number)
    return None if left is None else sentences()[left]


def pair_label(tournament: Tournament, stage: Stage | None, number: int) -> str:
    """The pairing button's words for round ``number`` of ``stage``: "Pair round 4", a later stage's "Pair stage 2,
    round 1", a knockout's "Pair the semi-finals" once its bracket is drawn (individual: "Draw")."""
    if not tournament.is_individual:
        named = _knockout(stage, number, lambda: (_("Pair the final"), _("Pair the semi-finals"),
                                                  _("Pair the quarter-finals"), _("Pair the round of 16")))
        if named is not None:
            return named
    if stage is not None and stage.number > 1:
        return (_("Draw stage %(stage)s, round %(n)s") if tournament.is_individual
                else _("Pair stage %(stage)s, round %(n)s")) % {"stage": stage.number, "n": number}
    return (_("Draw round %(n)s") if tournament.is_individual else _("Pair round %(n)s")) % {"n": number}


def _stage(rnd: Round) -> Stage | None:
    return rnd.stage if rnd.stage_id else None


def unfinished(rnd: Round) -> str:
    """"Round 3 still has unfinished matches.", a later stage's "Stage 2, round 1 ...", a knockout's "The
    quarter-finals still have unfinished matches."."""
    named = _knockout(_stage(rnd), rnd.number, lambda: (
        _("The final still has unfinished matches."), _("The semi-finals still have unfinished matches."),
        _("The quarter-finals still have unfinished matches."), _("The round of 16 still has unfinished matches.")))
    if named is not None:
        return named
    stage = round_names.stage_number(rnd)
    if stage > 1:
        return _("Stage %(s)s, round %(n)s still has unfinished matches.") % {"s": stage, "n": rnd.number}
    return _("Round %(n)s still has unfinished matches.") % {"n": rnd.number}


def published(rnd: Round) -> str:
    """What publishing the round says: "Round 2 is published: ...", a knockout's "The final is published: ..."."""
    named = _knockout(_stage(rnd), rnd.number, lambda: (
        _("The final is published: everyone who follows the event sees it now."),
        _("The semi-finals are published: everyone who follows the event sees them now."),
        _("The quarter-finals are published: everyone who follows the event sees them now."),
        _("The round of 16 is published: everyone who follows the event sees it now.")))
    if named is not None:
        return named
    return _("Round %(n)s is published: everyone who follows the event sees it now.") % {"n": rnd.number}


def new_dispute(match: Match) -> str:
    """What the director's desk says aloud (its alert) when a table's result is disputed: "A new dispute: table 2 of
    round 1.", a later stage's "... of stage 2, round 1.", a knockout's "A new dispute: table 1 of the final.", the
    match for third place's "A new dispute: the match for third place (table 2).". The round's stage read with it."""
    rnd = match.round
    if round_names.is_third_place(match):
        return _("A new dispute: the match for third place (table %(t)s).") % {"t": match.table}
    named = _knockout(_stage(rnd), rnd.number, lambda: (
        _("A new dispute: table %(t)s of the final."), _("A new dispute: table %(t)s of the semi-finals."),
        _("A new dispute: table %(t)s of the quarter-finals."), _("A new dispute: table %(t)s of the round of 16.")))
    if named is not None:
        return named % {"t": match.table}
    stage = round_names.stage_number(rnd)
    if stage > 1:
        return _("A new dispute: table %(t)s of stage %(s)s, round %(n)s.") % {"t": match.table, "s": stage,
                                                                             "n": rnd.number}
    return _("A new dispute: table %(t)s of round %(n)s.") % {"t": match.table, "n": rnd.number}
