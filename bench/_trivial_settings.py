"""The project's settings with ``bench/_trivial_urls.py`` as the URLconf (bench_http.py puts bench/ on the path)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "_trivial_urls"
