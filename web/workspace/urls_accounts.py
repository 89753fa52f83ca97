"""The workspace routes of accounts."""

urlpatterns = []
