"""The workspace routes of entry."""

urlpatterns = []
