"""Standings logic: metrics (a registry of small named functions) and the ranking that uses them.

Pure Python over plain values, no Django: ``tournaments.services.standings`` loads the rows. Team
events rank teams (``standings``); individual events rank players with the same machinery
(``individual``).
"""

from .individual import (
    IndividualClubRow,
    IndividualMatch,
    IndividualRow,
    PlayerInfo,
    SitOut,
    compute_individual_standings,
    individual_club_standings,
    sit_out_score,
    table_winners,
)
from .metrics import DEFAULT_METRICS, INDIVIDUAL_TIEBREAKS, METRICS, Context, MatchRecord, PointsSettings, TeamInfo
from .standings import (
    ClubRow,
    StandingRow,
    StandingsRefused,
    club_standings,
    compute_standings,
    rank_standings,
    resolve_metrics,
)

__all__ = ["DEFAULT_METRICS", "INDIVIDUAL_TIEBREAKS", "METRICS", "Context", "MatchRecord", "PointsSettings",
           "TeamInfo", "ClubRow", "StandingRow", "StandingsRefused", "club_standings", "compute_standings",
           "rank_standings", "resolve_metrics", "IndividualClubRow", "IndividualMatch", "IndividualRow",
           "PlayerInfo", "SitOut", "compute_individual_standings", "individual_club_standings", "sit_out_score",
           "table_winners"]
