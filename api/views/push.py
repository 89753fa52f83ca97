"""The push channel's endpoints (docs/api.md "The push channel"): a ticket, and the stream.

``POST push/tickets/`` answers a ticket for the user of the token (or for anyone, for public tournaments).
``GET push/stream/?ticket=`` is served by the ASGI server (``api.push_asgi``, routed before Django in
``config/asgi.py`` and by the proxy): a stream lasts, and the WSGI servers hold a thread for each request. This
view answers it where Django's URLs reach it: with the store in this process (``runserver``, the zero-setup
run) it streams from its thread, as ``runserver`` gives every request one; with Redis it is a server that must
not hold streams (``web``), and it says so (503 ``push_unavailable``).
"""

from __future__ import annotations

import queue
import time

from django.conf import settings
from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from drf_standardized_errors.openapi_serializers import ClientErrorEnum, ErrorResponse404Serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.auth import client_ip
from tournaments import refusals
from tournaments.access import visible_tournaments
from webhooks import push_store

from ..openapi import AutoSchema
from ..openapi_push import PUSH_EVENT, PushTicketRequestSerializer, PushTicketSerializer
from ..push import STREAM_PATH, Refused, Session, ticket_issue


class PushErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


class PushClientErrorSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ClientErrorEnum.choices)
    errors = PushErrorSerializer(many=True)


class PushTicketView(APIView):
    """A ticket to open one stream, for the token's user (or anyone: the public tournaments)."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="A ticket to open the push channel's stream", request=PushTicketRequestSerializer,
        responses={201: PushTicketSerializer,
                   404: OpenApiResponse(ErrorResponse404Serializer, description="No tournament of that id or slug "
                                                                                "that you may see.")},
        examples=[OpenApiExample("One tournament", request_only=True, value={"tournament": "zwarte-kat-kermis"}),
                  OpenApiExample("The ticket", response_only=True, status_codes=["201"], value={
                      "ticket": "Jx1c0m6Zr0c8Qm1bE4k9mD2sYt7vWq3aH5nL8pR0uXo",
                      "expires": "2026-11-24T10:49:36.073290+01:00",
                      "url": "http://127.0.0.1:8000/api/v1/push/stream/?ticket=Jx1c0m6Zr0c8Qm1bE4k9mD2sYt7vWq3aH5nL8pR0uXo"})],
    )
    def post(self, request, *args, **kwargs):
        serializer = PushTicketRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = request.user if request.user.is_authenticated else None
        lookup = serializer.validated_data.get("tournament")
        tournament = get_object_or_404(visible_tournaments(user), **lookup) if lookup else None
        ticket, expires = ticket_issue(user=user, tournament=tournament)
        url = request.build_absolute_uri(f"{STREAM_PATH}?ticket={ticket}")
        return Response(PushTicketSerializer({"ticket": ticket, "expires": expires, "url": url}).data,
                        status=status.HTTP_201_CREATED)


def _refusal_example(code: str, status_code: int, detail: str) -> OpenApiExample:
    return OpenApiExample(code, status_codes=[str(status_code)], response_only=True,
                          value={"type": "client_error", "errors": [{"code": code, "detail": detail, "attr": None}]})


class PushStreamSchema(AutoSchema):
    """The stream's refusals as it answers them (not the token's, which it never reads); a 405 besides them."""

    def _should_add_error_response(self, responses: dict, status_code: str) -> bool:
        return status_code == "405" and super()._should_add_error_response(responses, status_code)

    def _get_error_response_examples(self) -> list[OpenApiExample]:
        return [
            _refusal_example("ticket_invalid", 401, "This ticket is not one the server gave: ask for a new one "
                                                    "(POST /api/v1/push/tickets/)."),
            _refusal_example("ticket_expired", 401, "This ticket has lapsed: a ticket opens a stream within 60 "
                                                    "seconds. Ask for a new one."),
            _refusal_example("ticket_used", 401, "This ticket was used already: a ticket opens one stream. Ask for a "
                                                 "new one."),
            _refusal_example("not_found", 404, "The tournament no longer exists."),
            _refusal_example("push_connections", 429, "You have 20 streams open already, the most allowed: close one "
                                                      "first."),
            *(e for e in super()._get_error_response_examples() if e.status_codes == ["405"]),
        ]


class _JSONOnly:
    """Errors are JSON whatever the request accepts (an EventSource asks for ``text/event-stream``)."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class PushStreamView(APIView):
    """The stream, where Django serves it: in process only (see the module)."""

    authentication_classes = []  # the ticket is the credential
    permission_classes = [AllowAny]
    throttle_classes = []
    renderer_classes = [JSONRenderer]
    content_negotiation_class = _JSONOnly
    schema = PushStreamSchema()

    @extend_schema(
        summary="The push channel: the tournaments' events as Server-Sent Events",
        parameters=[
            OpenApiParameter("ticket", OpenApiTypes.STR, OpenApiParameter.QUERY, required=True,
                             description="A ticket from `POST /api/v1/push/tickets/`, used once."),
            OpenApiParameter("last_event_id", OpenApiTypes.STR, OpenApiParameter.QUERY,
                             description="The `id` of the last event received, to have the missed ones replayed "
                                         "(as the `Last-Event-ID` header: for a client that opens a new "
                                         "`EventSource`, which cannot set headers)."),
            OpenApiParameter("Last-Event-ID", OpenApiTypes.STR, OpenApiParameter.HEADER,
                             description="The `id` of the last event received (an `EventSource` sends it when it "
                                         "reconnects)."),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                PUSH_EVENT, description="An endless stream: each event an `id:` line and a `data:` line of JSON "
                                        "(`PushEvent`); a comment line (`: keep-alive`) every "
                                        "`PUSH_HEARTBEAT_SECONDS`."),
            401: OpenApiResponse(PushClientErrorSerializer, description="`ticket_invalid`, `ticket_expired` or "
                                                                        "`ticket_used`: ask for a new ticket."),
            404: OpenApiResponse(ErrorResponse404Serializer, description="The tournament of the ticket is no longer "
                                                                         "one you may see."),
            429: OpenApiResponse(PushClientErrorSerializer, description="`push_connections`: too many streams open "
                                                                        "for this user (or address)."),
            # A 503 `push_unavailable` (Redis away, or a server that holds no streams) is not advertised, as no
            # 5xx is (docs/api.md says when it comes).
        },
    )
    def get(self, request, *args, **kwargs):
        last_event_id = request.headers.get("Last-Event-ID") or request.query_params.get("last_event_id")
        try:
            if not push_store.get().in_process:
                raise Refused(503, "push_unavailable", refusals.words("push_unavailable", {"reason": "server"}),
                              retry_after=60)
            session = Session.open(ticket=request.query_params.get("ticket", ""), address=client_ip(request))
        except Refused as refused:
            answer = Response(refused.body(), status=refused.status)
            if refused.retry_after:
                answer["Retry-After"] = str(refused.retry_after)
            return answer
        # gzip would hold the events back in its buffer: a stream goes out as it is written.
        request._request.META.pop("HTTP_ACCEPT_ENCODING", None)
        response = StreamingHttpResponse(_frames(session, last_event_id, translation.get_language()),
                                         content_type="text/event-stream; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"
        return response


def _frames(session: Session, last_event_id: str | None, language: str):
    """The stream from this thread: the store's listener fills a queue, the thread writes what it takes."""
    received: queue.SimpleQueue = queue.SimpleQueue()

    def listener(events, gap):
        received.put((events, gap))

    store = session.store
    store.listen(listener)
    try:
        with translation.override(language):
            yield b"".join(session.begin(last_event_id))
        beat = time.monotonic() + settings.PUSH_HEARTBEAT_SECONDS
        while not session.expired():
            if time.monotonic() >= beat:  # every heartbeat's time, whether events come or not
                yield session.heartbeat()
                beat = time.monotonic() + settings.PUSH_HEARTBEAT_SECONDS
            try:
                events, gap = received.get(timeout=max(0.0, beat - time.monotonic()))
            except queue.Empty:
                continue
            if gap:
                return
            out = []
            for event in events:
                wanted = session.check(event)
                if wanted is None:
                    wanted = session.may_see(event.tournament)
                if wanted:
                    out.append(event.frame())
            if out:
                yield b"".join(out)
    finally:
        store.unlisten(listener)
        session.close()
