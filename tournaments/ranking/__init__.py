"""Standings logic: metrics (a registry of small named functions) and the ranking that uses them.

Pure Python over plain values, no Django: ``tournaments.services.standings`` loads the rows.
"""

from .metrics import DEFAULT_METRICS, METRICS, Context, MatchRecord, PointsSettings, TeamInfo
from .standings import ClubRow, StandingRow, club_standings, compute_standings, rank_standings, resolve_metrics

__all__ = ["DEFAULT_METRICS", "METRICS", "Context", "MatchRecord", "PointsSettings", "TeamInfo", "ClubRow",
           "StandingRow", "club_standings", "compute_standings", "rank_standings", "resolve_metrics"]
