"""Matches (the scoreboard), their games and hands: results in, scoreboards out."""

import re

from django.http import Http404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import (
    OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema, extend_schema_view,
)
from rest_framework import exceptions, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from tournaments import versions
from tournaments.models import Game, Hand, Match
from tournaments.selectors.changes import DELETION, changed_since, deleted_hands, hand_listed, hand_tombstone
from tournaments.selectors.matches import hand_computed, hand_result, match_scoreboard, match_side_names
from tournaments.selectors.seats import players_of_matches
from tournaments.services.games import game_start
from tournaments.services.hands import hand_correct, hand_delete_last, hand_enter, hand_key, hand_key_refuse_invalid

from ..filters import HandFilter, MatchFilter
from ..openapi import ErrorResponse422Serializer
from ..openapi_examples import EXAMPLE_BELGIAN_HAND, EXAMPLE_HAND_ENTERED, EXAMPLE_RULE_REFUSAL, EXAMPLE_SPANISH_HAND
from ..permissions import ResultWrite, visible_hands, visible_matches
from ..serializers.matches import (
    GameStartSerializer, HandEnterSerializer, HandHistorySerializer, HandListedSerializer, HandPatchSerializer,
    HandResultSerializer, HandTombstoneSerializer, MatchListSerializer, ScoreboardGameSerializer, ScoreboardSerializer,
)
from ..serializers.refs import ref, split
from .changes import (
    UPDATED_AFTER, ChangesPagination, ChangesQueryMixin, changes_limit, changes_position, changes_response,
)
from .common import PAGINATION, page_of, plain, validated
from .conditional import VisitorNotModified, public_answer, versioned

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="A key of your own for this hand (1-100 printable ASCII characters, no spaces; scoped to your "
                "user), new for every hand: a UUID, or the tournament, round, table, game and hand number. "
                "Repeating the same request with it (the same match and hand, in any key order, and the same "
                "`number` and `game` if sent) returns the stored hand with `Idempotent-Replayed: true` and stores "
                "nothing new, also after the hand was corrected. The key with another hand or body is refused, "
                "422 `idempotency_key_mismatch`; with a hand of another match, 409 `idempotency_key_reused`.",
)
IF_NONE_MATCH = OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False,
                                 description="An ETag of an earlier answer: 304 while nothing changed.")
KEY_RE = re.compile(r"^[\x21-\x7e]{1,100}$")
# A hand's body is validated by one serializer made once (``validated``): a new one deep-copies its
# declared fields, the nested play's among them, which cost more than the validation.
HAND_BODY = HandEnterSerializer()
PLAYED_AT = HAND_BODY.fields["played_at"]


class ResultsMixin:
    """Write checks for results: staff, the tournament's organizers and scorekeepers."""

    permission_classes = [ResultWrite]
    lookup_value_regex = r"[0-9]+"

    def tournament_id_of(self, obj) -> int:
        raise NotImplementedError


@extend_schema_view(
    list=extend_schema(summary="List matches (filter by tournament, round number, team, status)",
                       parameters=[UPDATED_AFTER]),
)
class MatchViewSet(VisitorNotModified, ChangesQueryMixin, ResultsMixin, mixins.ListModelMixin,
                   viewsets.GenericViewSet):
    serializer_class = MatchListSerializer
    pagination_class = ChangesPagination
    filterset_class = MatchFilter
    ordering_fields = ["table", "id"]
    ordering = ["round__tournament", "round__number", "table"]
    # ?search= finds a match by its teams' names and its players' names (a team's two, an individual event's seats).
    search_fields = ["ns__name", "ew__name", "ns__player_1__name", "ns__player_2__name", "ew__player_1__name",
                     "ew__player_2__name", "seats__player__name"]
    conflict_methods = ("POST",)
    rule_methods = ("POST",)
    conditional_actions = ("retrieve",)  # ETag and 304 (the schema's If-None-Match: api/openapi_http.py)

    def refusal_names(self) -> dict | None:
        """The match's teams by side, for the words of a refusal of a write to it (api/exceptions.py)."""
        pk = self.kwargs.get("pk")
        return match_side_names(match_id=int(pk)) if str(pk or "").isdigit() else None

    def get_queryset(self):
        matches = visible_matches(self.request.user).select_related("round__tournament")
        if self.action == "list":  # a team event's players joined; an individual event's seats: one query a page
            matches = matches.select_related("round__tournament", "ns__club", "ew__club", "ns__player_1",
                                             "ns__player_2", "ew__player_1", "ew__player_2")
        return matches

    def tournament_id_of(self, match) -> int:
        return match.round.tournament_id

    def get_serializer(self, *args, **kwargs):
        if self.action == "list" and args:
            matches = list(args[0])
            kwargs["context"] = {**self.get_serializer_context(), "players": players_of_matches(matches)}
            return MatchListSerializer(matches, *args[1:], **kwargs)
        return super().get_serializer(*args, **kwargs)

    def list(self, request, *args, **kwargs):
        position = changes_position(request)
        if position is None:
            return super().list(request, *args, **kwargs)
        page = changed_since(rows=self.filter_queryset(self.get_queryset()), position=position, limit=changes_limit())
        return changes_response(request, page, self.get_serializer([row for _, row in page.changes], many=True).data)

    def visitor_versions(self, request, kwargs):
        """``VisitorNotModified``'s: the scoreboard's."""
        if self.action_map.get("get") != "retrieve":
            return None
        pk = kwargs["pk"]
        # A match of a round not yet published has no visitor's answer: a 404 (public_answer), never a 304.
        tournament_id = versions.published_match_tournament_id(int(pk))
        return None if tournament_id is None else (tournament_id, versions.scoreboard_keys(int(pk), tournament_id),
                                                   ("scoreboard", pk))

    @extend_schema(
        summary="The match scoreboard",
        description="Teams, status, games won, and per game every hand with its result and running totals, "
                    "the next dealer and what the next hand is worth. Answers an ETag; 304 to If-None-Match.",
        parameters=[IF_NONE_MATCH],
        responses={200: ScoreboardSerializer, 304: OpenApiResponse(description="Not modified since the ETag.")},
    )
    def retrieve(self, request, pk=None):
        def build():
            return split(match_scoreboard(match_id=int(pk)), "tournament", "ns", "ew")

        if not request.user.is_authenticated:  # a visitor: public tournaments, checked with the stamps
            tournament_id, keys, parts = self.visitor_versions(request, self.kwargs) or (None, None, None)
            return public_answer(request, tournament_id, keys, parts, build)
        found = visible_matches(request.user).filter(pk=pk).values_list("round__tournament_id",
                                                                          "round__published_at").first()
        if found is None:
            raise Http404
        tournament_id, keys = found[0], versions.scoreboard_keys(int(pk), found[0])
        if found[1] is None:  # a round not yet published: its round's writes move the unpublished answers' stamp
            keys = (*keys, versions.unpublished_key(tournament_id))
        return versioned(request, keys, ("scoreboard", pk), build)

    @extend_schema(summary="Enter the next hand of the game in progress",
                   parameters=[IDEMPOTENCY_KEY], request=HandEnterSerializer,
                   responses={201: HandResultSerializer,
                              422: OpenApiResponse(ErrorResponse422Serializer,
                                                   description="The Idempotency-Key was already used for another "
                                                               "hand or body (`idempotency_key_mismatch`).")},
                   examples=[EXAMPLE_BELGIAN_HAND, EXAMPLE_SPANISH_HAND, EXAMPLE_HAND_ENTERED, EXAMPLE_RULE_REFUSAL])
    @action(detail=True, methods=["post"])
    def hands(self, request, pk=None):
        key = request.headers.get("Idempotency-Key")
        if key is not None:
            if not KEY_RE.match(key):
                raise exceptions.ValidationError(
                    {"Idempotency-Key": [exceptions.ErrorDetail(
                        "Idempotency-Key must be 1 to 100 printable ASCII characters without spaces.",
                        code="invalid")]})

        stored_key = hand_key(user=request.user, key=key)
        played_at = self._played_at(request, stored_key)

        def read():
            data = validated(HAND_BODY, request.data)
            data.pop("played_at", None)  # read already (``_played_at``)
            data = plain(data)
            return data, data.pop("number", None), data.pop("game", None)

        # One statement locks the match and tells whether the user may see it and keep its score (the
        # queries of get_object() and ResultWrite, under the lock). A body that does not validate is refused
        # by the service as its key says (422 when the key is stored: not its retry).
        try:
            hand, created = hand_enter(match_id=int(pk), read=read, user=request.user, idempotency_key=stored_key,
                                        viewer=request.user, played_at=played_at,
                                        authorize=lambda match: self._may_keep_score(request, match))
        except Match.DoesNotExist:
            raise Http404 from None
        response = Response(hand_result(hand, current=created), status=status.HTTP_201_CREATED)
        if not created:
            response["Idempotent-Replayed"] = "true"
        return response

    @staticmethod
    def _played_at(request, stored_key: str | None):
        """The body's ``played_at`` (None: now), read before the hand: ``hand_enter`` judges the clock by it. A
        value that is no time is refused as the body's other fields are (422 when the key is stored)."""
        try:
            value = request.data.get("played_at") if isinstance(request.data, dict) else None
            return None if value is None else PLAYED_AT.run_validation(value)
        except exceptions.ValidationError as exc:
            hand_key_refuse_invalid(idempotency_key=stored_key)
            raise exceptions.ValidationError({"played_at": exc.detail}) from None
        except Exception:  # a body that cannot be read: refused as ``hand_enter`` refuses it
            hand_key_refuse_invalid(idempotency_key=stored_key)
            raise

    def _may_keep_score(self, request, match) -> None:
        if not match.keeps_score:
            self.permission_denied(request)

    @extend_schema(summary="Start the match's next game with the dealer drawn at the table",
                   description="Optional: entering a hand starts the game with its dealer as first dealer. "
                               "Start it here to record a Classic Malilla favourite suit or a Mexican albur.",
                   request=GameStartSerializer, responses={201: ScoreboardGameSerializer})
    @action(detail=True, methods=["post"])
    def games(self, request, pk=None):
        match = self.get_object()
        body = GameStartSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = game_start(match=match, user=request.user, **body.validated_data)
        board = match_scoreboard(match_id=match.pk)
        return Response(next(g for g in board["games"] if g["number"] == game.number),
                        status=status.HTTP_201_CREATED)


def _lookup(field_name: str, value) -> tuple[str, object]:
    """A filter's lookup on the hands' deletions: an id, or a tournament's ``{"pk": …}`` or ``{"slug": …}``."""
    if isinstance(value, dict):
        (key, found), = value.items()
        return (f"{field_name}__{key}", found) if found is not None else ("pk__in", [])
    return field_name, value


HAND_CHANGE = PolymorphicProxySerializer(
    component_name="HandChange", serializers=[HandListedSerializer, HandTombstoneSerializer],
    resource_type_field_name=None, many=True)


@extend_schema_view(
    list=extend_schema(summary="List hands (filter by match, tournament); what changed since a cursor",
                       parameters=[UPDATED_AFTER], responses=HAND_CHANGE),
    retrieve=extend_schema(summary="A stored hand with its result", responses=HandResultSerializer),
    partial_update=extend_schema(summary="Correct a hand (audited; re-scores the hands after it)",
                                 request=HandPatchSerializer, responses=HandResultSerializer),
    destroy=extend_schema(summary="Delete the last hand of a game"),
)
class HandViewSet(ChangesQueryMixin, ResultsMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                  viewsets.GenericViewSet):
    http_method_names = ["get", "patch", "delete", "head", "options"]
    serializer_class = HandResultSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = HandFilter
    pagination_class = ChangesPagination
    conflict_methods = ("PATCH", "DELETE")
    rule_methods = ("PATCH",)

    def refusal_names(self) -> dict | None:
        """The hand's match's teams by side, for the words of a refusal of a correction (api/exceptions.py)."""
        pk = self.kwargs.get("pk")
        return match_side_names(hand_id=int(pk)) if str(pk or "").isdigit() else None

    def get_queryset(self):
        return visible_hands(self.request.user).select_related("game__match__round")

    def tournament_id_of(self, hand) -> int:
        return hand.game.match.round.tournament_id

    def filter_queryset(self, queryset):
        # Only the list filters: a hand's own routes find it by its id alone (no filter set built on the hot path).
        return super().filter_queryset(queryset) if self.action == "list" else queryset

    def list(self, request, *args, **kwargs):
        position = changes_position(request)
        hands = self.filter_queryset(self.get_queryset().select_related("game"))
        if position is None:
            page = self.paginate_queryset(hands.order_by("game__match_id", "game__number", "number"))
            return self.get_paginated_response(HandListedSerializer([hand_listed(h) for h in page], many=True).data)
        filterset = HandFilter(request.query_params, queryset=hands)
        filters = filterset.form.cleaned_data if filterset.is_valid() else {}  # refused by filter_queryset if not
        deletions = deleted_hands(user=request.user).filter(
            **dict(_lookup(HandFilter.base_filters[name].field_name, value) for name, value in filters.items()
                   if value))
        page = changed_since(rows=hands, deletions=deletions, position=position, limit=changes_limit())
        rows = [HandTombstoneSerializer(hand_tombstone(r)).data if kind == DELETION
                else HandListedSerializer(hand_listed(r)).data for kind, r in page.changes]
        return changes_response(request, page, rows)

    def retrieve(self, request, pk=None):
        return Response(hand_result(self.get_object()))

    def partial_update(self, request, pk=None):
        hand = self.get_object()
        body = HandPatchSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        data = plain(body.validated_data)
        reason = " ".join(data.pop("reason", "").split())
        hand = hand_correct(hand=hand, data=data, user=request.user, reason=reason or None)
        return Response(hand_result(hand))

    def destroy(self, request, pk=None):
        reason = " ".join(request.query_params.get("reason", "").split())[:300]  # a director's, of a locked result
        hand_delete_last(hand=self.get_object(), user=request.user, reason=reason or None)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(summary="The hand's audit history, oldest first (also for a deleted hand)",
                   responses=HandHistorySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=PAGINATION, filter_backends=[])
    def history(self, request, pk=None):
        records = list(Hand.history.filter(id=pk).select_related("history_user").order_by("history_id"))
        if not records:
            raise Http404
        game = Game.objects.filter(pk=records[-1].game_id).select_related("match__round").first()
        if game is None or not visible_matches(request.user).filter(pk=game.match_id).exists():
            raise Http404
        kinds = {"+": "created", "~": "changed", "-": "deleted"}
        rows = [
            {
                "history_id": r.history_id,
                "date": r.history_date,
                "change": kinds.get(r.history_type, "changed"),
                "user": r.history_user_id,
                "user_detail": ref(r.history_user, "username"),
                "reason": r.history_change_reason,
                "hand": hand_computed(r.instance),
            }
            for r in records
        ]
        return page_of(request, rows, lambda page: HandHistorySerializer(page, many=True).data, view=self)
