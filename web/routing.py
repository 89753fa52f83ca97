"""WebSocket routes: one per live region (see web.consumers)."""

from django.urls import path

from web.consumers import LiveConsumer

websocket_urlpatterns = [
    path("ws/live/<str:kind>/<int:pk>/", LiveConsumer.as_asgi()),
]
