"""The workspace routes of clubs."""

urlpatterns = []
