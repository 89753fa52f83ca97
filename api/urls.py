"""The REST API under /api/v1/ (docs/api.md)."""

from django.urls import path, re_path
from rest_framework.routers import DefaultRouter

from .views.auth import LogoutView, MeView, TokenDetailView, TokenListView, TokenView
from .views.common import NotFoundView
from .views.confirmation import (
    ResultConfirmView, ResultDisputeView, ResultEventsView, ResultPaperView, ResultSettleView,
)
from .views.desk import DirectorActionViewSet
from .views.matches import HandViewSet, MatchViewSet
from .views.push import PushStreamView, PushTicketView
from .views.registry import ClubViewSet, PlayerViewSet, TeamViewSet
from .views.rounds import RoundViewSet, StandingsView, TaskView
from .views.stages import StageViewSet
from .views.tables import LiveTablesView, RoundTablesView
from .views.tournaments import TOURNAMENT_REF, EntryViewSet, KeptApartViewSet, TournamentViewSet
from .views.variants import VariantViewSet
from .views.webhooks import EndpointViewSet

app_name = "api"

router = DefaultRouter()
router.register("variants", VariantViewSet, basename="variant")
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("teams", TeamViewSet, basename="team")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register(rf"tournaments/(?P<tournament_id>{TOURNAMENT_REF})/entries", EntryViewSet, basename="entry")
router.register(rf"tournaments/(?P<tournament_id>{TOURNAMENT_REF})/kept-apart", KeptApartViewSet,
                basename="kept-apart")
router.register(rf"tournaments/(?P<tournament_id>{TOURNAMENT_REF})/rounds", RoundViewSet, basename="round")
router.register(rf"tournaments/(?P<tournament_id>{TOURNAMENT_REF})/stages", StageViewSet, basename="stage")
router.register("matches", MatchViewSet, basename="match")
router.register("hands", HandViewSet, basename="hand")
router.register(rf"tournaments/(?P<tournament_id>{TOURNAMENT_REF})/webhooks", EndpointViewSet, basename="webhook")
router.register(rf"tournaments/(?P<tournament_id>{TOURNAMENT_REF})/actions", DirectorActionViewSet,
                basename="director-action")

# Django tries the patterns in order, half a microsecond each (45 came before the hand POST's): the
# busiest paths go first, the hand POST and the scoreboard, then the standings. No two patterns here
# match the same path, so the order changes nothing else; the catch-all stays last.
_busiest = [p for p in router.urls if str(p.pattern).startswith(("^matches", "^hands"))]

urlpatterns = [
    *_busiest,
    re_path(rf"^tournaments/(?P<tournament_id>{TOURNAMENT_REF})/standings/$", StandingsView.as_view(),
            name="standings"),
    re_path(rf"^tournaments/(?P<tournament_id>{TOURNAMENT_REF})/rounds/(?P<number>[0-9]{{1,4}})/tables/$",
            RoundTablesView.as_view(), name="round-tables"),
    re_path(rf"^tournaments/(?P<tournament_id>{TOURNAMENT_REF})/live/$", LiveTablesView.as_view(),
            name="live-tables"),
    path("matches/<str:match_id>/confirm/", ResultConfirmView.as_view(), name="match-confirm"),
    path("matches/<str:match_id>/dispute/", ResultDisputeView.as_view(), name="match-dispute"),
    path("matches/<str:match_id>/settle/", ResultSettleView.as_view(), name="match-settle"),
    path("matches/<str:match_id>/confirm-on-paper/", ResultPaperView.as_view(), name="match-confirm-on-paper"),
    path("matches/<str:match_id>/result-events/", ResultEventsView.as_view(), name="match-result-events"),
    path("auth/token/", TokenView.as_view(), name="token"),
    path("auth/me/", MeView.as_view(), name="me"),
    path("auth/logout/", LogoutView.as_view(), name="logout"),
    path("auth/tokens/", TokenListView.as_view(), name="tokens"),
    re_path(r"^auth/tokens/(?P<token_id>[0-9a-zA-Z_-]{1,40})/$", TokenDetailView.as_view(), name="token-detail"),
    path("tasks/<uuid:task_id>/", TaskView.as_view(), name="task-detail"),
    path("push/tickets/", PushTicketView.as_view(), name="push-tickets"),
    path("push/stream/", PushStreamView.as_view(), name="push-stream"),
    *(p for p in router.urls if p not in _busiest),
    # Anything else under /api/v1/ is a 404 in the API's error shape, not Django's HTML page.
    re_path(r"^[\s\S]*$", NotFoundView.as_view(), name="not-found"),
]
