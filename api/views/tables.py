"""A whole round's tables, and a tournament's live matches, in one request each (a wall, a club's website)."""

from django.http import Http404
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.views import APIView

from tournaments import versions
from tournaments.selectors.tables import live_tables, round_tables

from ..serializers.refs import split
from ..serializers.tables import LiveTablesSerializer, RoundTablesSerializer
from .conditional import VisitorNotModified
from .rounds import ROUND_NUMBER
from .tournaments import TOURNAMENT_ID, TournamentChildMixin

EXAMPLE_TABLES = OpenApiExample(
    "Round 1, one table playing its second game", response_only=True, status_codes=["200"],
    value={"number": 1, "status": "playing", "tables": [{
        "id": 7, "round": 1, "table": 1, "bye": False,
        "ns": 13, "ns_detail": {"id": 13, "name": "De Manilles", "club": {"id": 4, "name": "Cafe De Kaart"}},
        "ew": 15, "ew_detail": {"id": 15, "name": "Tien en Aas", "club": {"id": 4, "name": "Cafe De Kaart"}},
        "players": {"ns": [{"id": 25, "name": "An Peeters"}, {"id": 26, "name": "Bram Claes"}],
                    "ew": [{"id": 29, "name": "Els Jacobs"}, {"id": 30, "name": "Frank Mertens"}]},
        "status": "playing", "result_status": None, "winner": None, "games_won": {"ns": 1, "ew": 0},
        "points": {"ns": 143, "ew": 61}, "game": {"number": 2, "status": "playing", "totals": {"ns": 41, "ew": 0}},
        "updated_at": "2026-11-24T10:52:11.402113+01:00"}]},
)


def tables_split(found: dict) -> dict:
    """The selector's tables with each team as its id and ``_detail`` (docs/api.md, one convention)."""
    return {**found, "tables": [split(row, "ns", "ew") for row in found["tables"]]}


class RoundTablesView(TournamentChildMixin, VisitorNotModified, APIView):
    """Every table of a round: teams and players named, games won, the current game's points."""

    conditional_actions = ("get",)  # ETag and 304 (the schema's If-None-Match: api/openapi_http.py)

    def answer_versions(self, request, kwargs, pk):
        return versions.results_keys(pk), ("tables", pk, int(kwargs["number"]))

    @extend_schema(
        summary="Every table of a round, with names and points",
        parameters=[TOURNAMENT_ID, ROUND_NUMBER], responses={200: RoundTablesSerializer}, examples=[EXAMPLE_TABLES],
    )
    def get(self, request, tournament_id=None, number=None):
        def build():
            found = round_tables(tournament=self.get_tournament(), number=int(number),
                                 unpublished=self.sees_unpublished())
            if found is None:
                raise Http404
            return tables_split(found)

        return self.conditional(build)


class LiveTablesView(TournamentChildMixin, VisitorNotModified, APIView):
    """The tournament's matches being played now, with names and points."""

    conditional_actions = ("get",)  # ETag and 304 (the schema's If-None-Match: api/openapi_http.py)

    def answer_versions(self, request, kwargs, pk):
        return versions.results_keys(pk), ("live", pk)

    @extend_schema(
        summary="The matches being played now, with names and points",
        parameters=[TOURNAMENT_ID], responses={200: LiveTablesSerializer},
    )
    def get(self, request, tournament_id=None):
        return self.conditional(lambda: tables_split(live_tables(tournament=self.get_tournament(),
                                                                      unpublished=self.sees_unpublished())))
