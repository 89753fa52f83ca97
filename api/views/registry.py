"""Clubs, players and teams: the registry a club keeps."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from drf_standardized_errors.openapi_validation_errors import extend_validation_errors
from rest_framework import viewsets

from tournaments.models import Club, Player, Team
from tournaments.services.clubs import (
    club_create, player_create, player_delete, player_update, team_create, team_delete, team_update,
)

from ..filters import ClubFilter, PlayerFilter, TeamFilter
from ..permissions import ClubMemberWrite, ClubWrite, require_club_manager
from ..serializers.registry import ClubSerializer, PlayerSerializer, TeamSerializer


@extend_schema_view(
    list=extend_schema(summary="List clubs"),
    retrieve=extend_schema(summary="A club"),
    create=extend_schema(summary="Found a club (its creator becomes a manager)"),
    update=extend_schema(summary="Replace a club"),
    partial_update=extend_schema(summary="Update a club"),
    destroy=extend_schema(summary="Delete a club without players, teams or tournaments"),
)
class ClubViewSet(viewsets.ModelViewSet):
    lookup_value_regex = r"[0-9]+"
    queryset = Club.objects.prefetch_related("managers")
    serializer_class = ClubSerializer
    permission_classes = [ClubWrite]
    filterset_class = ClubFilter
    search_fields = ["name", "city"]
    ordering_fields = ["name", "city", "created_at"]
    conflict_methods = ("DELETE",)

    def perform_create(self, serializer):
        serializer.instance = club_create(user=self.request.user, **serializer.validated_data)


class _ClubMemberViewSet(viewsets.ModelViewSet):
    """Writes need a manager of the object's club, and of the new club when it moves."""

    lookup_value_regex = r"[0-9]+"
    permission_classes = [ClubMemberWrite]
    conflict_methods = ("DELETE",)

    # The services of tournaments.services.clubs write (the same rules as the site's club pages).
    create_service = update_service = delete_service = None

    def perform_create(self, serializer):
        require_club_manager(self.request.user, serializer)
        serializer.instance = type(self).create_service(user=self.request.user, **serializer.validated_data)

    def perform_update(self, serializer):
        require_club_manager(self.request.user, serializer)
        key = self.queryset.model._meta.model_name
        serializer.instance = type(self).update_service(
            user=self.request.user, **{key: serializer.instance}, **serializer.validated_data)

    def perform_destroy(self, instance):
        type(self).delete_service(user=self.request.user, **{self.queryset.model._meta.model_name: instance})


@extend_schema_view(
    list=extend_schema(summary="List players"),
    retrieve=extend_schema(summary="A player"),
    create=extend_schema(summary="Register a player in a club"),
    update=extend_schema(summary="Replace a player"),
    partial_update=extend_schema(summary="Update a player"),
    destroy=extend_schema(summary="Delete a player who is in no team"),
)
class PlayerViewSet(_ClubMemberViewSet):
    queryset = Player.objects.select_related("club")
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    create_service, update_service, delete_service = player_create, player_update, player_delete
    search_fields = ["name", "licence"]
    ordering_fields = ["name", "club"]


@extend_schema_view(
    list=extend_schema(summary="List teams"),
    retrieve=extend_schema(summary="A team"),
    create=extend_schema(summary="Form a team of two players"),
    update=extend_schema(summary="Replace a team"),
    partial_update=extend_schema(summary="Update a team"),
    destroy=extend_schema(summary="Delete a team that never entered a tournament"),
)
@extend_validation_errors(["does_not_exist", "incorrect_type", "players_distinct"], field_name="players",
                          methods=["post", "put", "patch"])
class TeamViewSet(_ClubMemberViewSet):
    queryset = Team.objects.select_related("club", "player_1", "player_2")
    serializer_class = TeamSerializer
    filterset_class = TeamFilter
    create_service, update_service, delete_service = team_create, team_update, team_delete
    search_fields = ["name"]
    ordering_fields = ["name", "club"]
