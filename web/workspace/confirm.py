"""The other side's phone confirms or disputes a table's result: the table's code binds the phone to the match and
round (the entry door, ``table_code.py``); the player names themselves and types their personal code (on their
entry slip). The services (``tournaments.services.confirmation``) decide who may, and record every step."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments import refusals
from tournaments.selectors import confirmation as rules
from tournaments.selectors.seats import match_players
from tournaments.services import confirmation
from tournaments.services.errors import ServiceError

from . import entry_core as core
from .entry_logic import match_names


def confirm_page(request, door: core.Door):
    """GET: the result and the form (who you are, your code; confirm, or dispute with a reason). POST: do it."""
    match = door.match
    error, values, status = "", {}, 200
    if request.method == "POST":
        values = {k: request.POST.get(k, "") for k in ("player", "code", "reason", "action")}
        player = int(values["player"]) if values["player"].isdigit() else None
        proof = {"match_id": match.pk, "player_id": player, "code": values["code"], "table_code": door.code}
        try:
            if values["action"] == "dispute":
                confirmation.result_dispute(reason=values["reason"], **proof)
                messages.warning(request, _("The result is disputed: a director will settle it."))
            else:
                confirmation.result_confirm(**proof)
                messages.success(request, _("The result is confirmed. Thank you."))
        except ServiceError as exc:
            error = refusals.words(exc.code, exc.params)
            status = exc.status
        else:
            return redirect(door.url("match"))
    match.refresh_from_db()
    players, names = match_players(match), match_names(match)
    return render(request, "web/workspace/entry/confirm.html", {
        "tournament": match.round.tournament, "match": match, "names": names, "door": door.kind,
        # The names by team, the team's name the group's legend.
        "sides": [{"side": side, "name": names[side], "players": players[side]} for side in ("ns", "ew")],
        # A neutral entry (a table's phone, a scorekeeper of no side): either side confirms, from another phone.
        "anyone": not match.result_side,
        "status": rules.status_of(match), "error": error, "values": values,
        "own_phone": bool(match.result_device) and door.key_scope[1:] == match.result_device,
    }, status=status)
