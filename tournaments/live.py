"""Live updates: tell the open pages that a match or a tournament changed, once per change, on commit.

The message goes to a Channels group ("match-<id>", "tournament-<id>") through the channel layer
(Redis in production, so every web process hears it); each process renders the changed region
once and pushes it to its own viewers (``web.consumers``). This module only publishes: it knows
nothing about pages, and a failure to publish (Redis down, no layer) is logged, never raised, so
a result is never refused because a scoreboard could not be told about it.
"""

from __future__ import annotations

import logging
import uuid

from asgiref.sync import async_to_sync
from django.db import transaction

logger = logging.getLogger(__name__)

MESSAGE_TYPE = "region.changed"


def match_group(match_id: int) -> str:
    return f"match-{match_id}"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def standings_group(tournament_id: int) -> str:
    """The standings page's group: told only when the standings were recomputed, not after every hand."""
    return f"standings-{tournament_id}"


def _send(groups: list[str]) -> None:
    """Send one change message to each group now; log and swallow any failure."""
    try:
        from channels.layers import get_channel_layer

        layer = get_channel_layer()
        if layer is None:
            return
        message = {"type": MESSAGE_TYPE, "version": uuid.uuid4().hex}

        async def send_all():
            for group in groups:
                await layer.group_send(group, message)

        async_to_sync(send_all)()
    except Exception:
        logger.exception("live update to %s not published", ", ".join(groups))


def publish_match_changed(match_id: int, tournament_id: int) -> None:
    """On commit, tell the match's pages and its tournament's pages that they changed."""
    groups = [match_group(match_id), tournament_group(tournament_id)]
    transaction.on_commit(lambda: _send(groups))


def publish_tournament_changed(tournament_id: int) -> None:
    """On commit, tell the tournament's round and wall pages that they changed (a round was paired)."""
    groups = [tournament_group(tournament_id)]
    transaction.on_commit(lambda: _send(groups))


def publish_standings_changed(tournament_id: int) -> None:
    """On commit, tell the tournament's standings, round and wall pages that the standings were recomputed."""
    groups = [tournament_group(tournament_id), standings_group(tournament_id)]
    transaction.on_commit(lambda: _send(groups))
