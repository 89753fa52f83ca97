"""What every page's template needs: whether live push is on, the languages for the picker."""

from django.conf import settings


def site(request):
    return {"live_push": getattr(settings, "LIVE_PUSH", False), "site_languages": settings.LANGUAGES}
