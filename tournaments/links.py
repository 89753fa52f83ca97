"""Where a site shows the core's objects: links for the admin without ``tournaments`` importing ``web``.

The core never imports the site (``web``), the API or the webhooks: every arrow points from them to it.
Yet the admin links a tournament to its public standings and a match to its public scoreboard. So the
site tells the core where those pages are: its ``AppConfig.ready()`` registers one function per kind of
link (``register("standings", ...)``), and the admin asks ``url("standings", tournament)``. Without the
site installed (or for a kind nobody registered) the answer is None and the admin shows no link.

A registry rather than ``get_absolute_url`` through ``ABSOLUTE_URL_OVERRIDES``: a tournament has several
pages (its standings here), and a model with ``get_absolute_url`` grows an admin "View on site" button
this project does not show.
"""

from __future__ import annotations

from collections.abc import Callable

_LINKS: dict[str, Callable[[object], str]] = {}


def register(kind: str, build: Callable[[object], str]) -> None:
    """Register how to build the link of ``kind`` ("standings": a tournament, "match": a match) from an object."""
    _LINKS[kind] = build


def url(kind: str, obj) -> str | None:
    """Return the link of ``kind`` for ``obj`` (None: no site registered one)."""
    build = _LINKS.get(kind)
    return None if build is None else build(obj)
