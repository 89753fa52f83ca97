"""The workspace routes of organize."""

urlpatterns = []
