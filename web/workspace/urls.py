"""The workspace's URLs, namespace ``ws``: one module of routes per part, each kept by its own views."""

from . import urls_accounts, urls_clubs, urls_entry, urls_organize

app_name = "ws"

urlpatterns = [
    *urls_accounts.urlpatterns,
    *urls_organize.urlpatterns,
    *urls_clubs.urlpatterns,
    *urls_entry.urlpatterns,
]
