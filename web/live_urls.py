"""The live regions' polling endpoint, included by web.urls (reversed as "web:live-region")."""

from django.urls import path

from web import live_views

urlpatterns = [
    path("live/<str:kind>/<int:pk>/", live_views.region, name="live-region"),
]
