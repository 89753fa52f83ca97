"""Version stamps: what a conditional GET compares, and what a cached answer is keyed by, without reading it.

A stamp is a short random token kept in the cache (Redis in production, so every web process and
worker shares it; the local-memory cache in the zero-setup run, a single process). Every committed
write that can change an answer replaces the token of its scope with a new one; an ETag made of
the tokens therefore changes with every such write, and an answer cached under them is rebuilt
once per change. A token is never counted up, only replaced, so a stamp lost by the cache (an
eviction, a restarted Redis) comes back as a new random token: the next request misses, never
sees a stale answer.

Scopes (``key``):

* ``m:<match id>``       the match scoreboard: a match saved or deleted (every hand entered, corrected
                         or deleted saves its match), a game started;
* ``tr:<tournament id>`` the tournament's results: any of its matches saved or deleted, a round paired,
                         deleted or renumbered (the round and wall pages, the rounds API), of its published
                         rounds;
* ``tu:<tournament id>`` its rounds not yet published (issue 28): a write to such a round or its matches
                         replaces this one instead of ``tr`` and ``t``, so that the public's ETags do not move
                         until the round is published (its publication is a round saved: ``tr`` and ``t``);
                         the answers of those who see such rounds add it to their keys;
* ``st:<tournament id>`` its standings: a recompute (the snapshot is saved with every one);
* ``t:<tournament id>``  the tournament itself, its stages and its entries (names, settings, status, the rounds;
                         a stage started, closed or reopened: the header's "All played", a last stage's closing
                         that finishes the event with an ``update()``);
* ``names``              clubs, players and teams, whose names every answer shows: renamed anywhere.

Writes are found by model signals (``connect``, from ``TournamentsConfig.ready``: every path, the
admin and the workers included; a pairing creates its round, every hand saves its match, every
standings recompute its snapshot) and by the services that write with ``update()`` (a round's
status: ``tournaments.services.games``). A bump replaces the token at the write and again on
commit (``bump``). Reads take the stamp first and the data after it, so an answer cached under
the stamp that follows the commit is never older than the commit. When the cache cannot be reached, ``stamps`` answers None and callers build the
answer as if no stamp existed (and compare ETags of the body, as before).
"""

from __future__ import annotations

import hashlib
import logging
import time
import uuid

from django.core.cache import cache
from django.db import transaction

from tournaments import commit_cache

logger = logging.getLogger(__name__)

NAMES = "names"
_LOG_EVERY = 60.0
_last_logged = [0.0]


def match_key(match_id: int) -> str:
    return f"v:m:{match_id}"


def results_key(tournament_id: int) -> str:
    return f"v:tr:{tournament_id}"


def standings_key(tournament_id: int) -> str:
    return f"v:st:{tournament_id}"


def tournament_key(tournament_id: int) -> str:
    return f"v:t:{tournament_id}"


def unpublished_key(tournament_id: int) -> str:
    return f"v:tu:{tournament_id}"


NAMES_KEY = f"v:{NAMES}"


# The stamps of each answer, for every door (the API, the pages, their live regions): an answer's ETag and
# its cached body are keyed by exactly these, in this order.
def scoreboard_keys(match_id: int, tournament_id: int) -> tuple[str, ...]:
    """Return the stamps of a match's scoreboard: the match, its tournament, the names."""
    return match_key(match_id), tournament_key(tournament_id), NAMES_KEY


def results_keys(tournament_id: int) -> tuple[str, ...]:
    """Return the stamps of a tournament's rounds and tables: its results, the tournament, the names."""
    return results_key(tournament_id), tournament_key(tournament_id), NAMES_KEY


def standings_keys(tournament_id: int) -> tuple[str, ...]:
    """Return the stamps of a tournament's standings: the standings, the tournament, the names."""
    return standings_key(tournament_id), tournament_key(tournament_id), NAMES_KEY


def wall_keys(tournament_id: int) -> tuple[str, ...]:
    """Return the stamps of the hall's wall (the tables and the standings in turn)."""
    return results_key(tournament_id), standings_key(tournament_id), tournament_key(tournament_id), NAMES_KEY


def _token() -> str:
    return uuid.uuid4().hex[:16]


def _unavailable(what: str, exc: BaseException | None = None) -> None:
    now = time.monotonic()
    if now - _last_logged[0] >= _LOG_EVERY:
        _last_logged[0] = now
        logger.warning("version stamps: the cache is unavailable (%s); answers are built in full", what,
                       exc_info=exc or True)


def _read(keys: tuple[str, ...], also: tuple[str, ...] = ()) -> dict | None:
    """The stamps of ``keys`` (a missing one made), with whatever the cache holds under ``also``, in one round trip."""
    try:
        found = cache.get_many((*keys, *also))
        missing = [k for k in keys if k not in found]
        if missing:
            for key in missing:
                cache.add(key, _token(), timeout=None)
            found.update(cache.get_many(missing))
            if any(k not in found for k in keys):
                return None
    except Exception:  # noqa: BLE001 - Redis down or timing out: no stamps, full answers
        _unavailable("read")
        return None
    return found


def stamps(*keys: str) -> str | None:
    """Return the current stamps of ``keys`` joined into one string, or None when the cache is unavailable.

    A key the cache does not hold gets a new random token (``add``: when two processes race, both
    read the one that won).
    """
    found = _read(keys)
    return None if found is None else ".".join(str(found[k]) for k in keys)


# -- what a visitor may see, without SQL ----------------------------------------------------------------------------
#
# A visitor who is not signed in sees the public tournaments. Whether a tournament is public is kept in
# the cache next to the tournament's stamp it was read under (``public:<id>`` = "<stamp>:<0|1>"), and
# believed only while that stamp is current: every save of a tournament (publishing and unpublishing
# included) replaces its stamp, at the write and on commit, so a fact read before a commit is never
# believed after it (the reasoning of ``bump``). A match's tournament never changes: it is kept in
# process memory.
#
# Which tournament a page's slug names is kept too, in process memory and in the cache for the other
# processes (``slug_tournament_id``). It may be out of date (a slug moved to another tournament): a
# visitor's 304 compares the ETag with the stamps of the tournament it names, and the move replaced that
# tournament's stamp, so an out-of-date slug costs a page built, never a wrong 304.

_MATCH_TOURNAMENTS: dict[int, int] = {}
_ROUND_TOURNAMENTS: dict[int, int] = {}
_PUBLISHED_MATCH_TOURNAMENTS: dict[int, int] = {}
_MATCH_TOURNAMENTS_MAX = 50_000
_SLUGS: dict[str, int] = {}
_SLUGS_MAX = 10_000
SLUG_TIMEOUT = 24 * 3600


def forget() -> None:
    """Empty the process's memory of matches' tournaments and slugs (the tests: a rolled-back SQLite id comes again)."""
    _MATCH_TOURNAMENTS.clear()
    _ROUND_TOURNAMENTS.clear()
    _PUBLISHED_MATCH_TOURNAMENTS.clear()
    _SLUGS.clear()


def _slug_key(slug: str) -> str:
    return f"v:slug:{slug}"


def _keep_slug(slug: str, tournament_id: int) -> None:
    if len(_SLUGS) >= _SLUGS_MAX:
        _SLUGS.clear()
    _SLUGS[slug] = tournament_id


def slug_tournament_id(slug: str) -> int | None:
    """The tournament a slug named when a page of it was last built here or, failing that, in any process (None:
    not known, or no cache). Not a lookup: only for a 304's stamps (see above)."""
    tournament_id = _SLUGS.get(slug)
    if tournament_id is None:
        try:
            tournament_id = cache.get(_slug_key(slug))
        except Exception:  # noqa: BLE001
            return None
        if not isinstance(tournament_id, int):
            return None
        _keep_slug(slug, tournament_id)
    return tournament_id


def remember_slug(slug: str, tournament_id: int) -> None:
    """Keep which tournament ``slug`` names (a page of it was just built), for the 304s of this process and others."""
    if _SLUGS.get(slug) == tournament_id:
        return
    _keep_slug(slug, tournament_id)
    try:
        if cache.get(_slug_key(slug)) != tournament_id:
            cache.set(_slug_key(slug), tournament_id, timeout=SLUG_TIMEOUT)
    except Exception:  # noqa: BLE001 - not kept there: another process builds its first page
        pass


def public_key(tournament_id: int) -> str:
    return f"v:public:{tournament_id}"


def _kept_tournament_id(kept: dict[int, int], pk: int, read) -> int | None:
    """``kept[pk]``, or ``read()`` kept there (a match or round never moves to another tournament)."""
    tournament_id = kept.get(pk)
    if tournament_id is None:
        tournament_id = read()
        if tournament_id is not None:
            if len(kept) >= _MATCH_TOURNAMENTS_MAX:
                kept.clear()
            kept[pk] = tournament_id
    return tournament_id


def match_tournament_id(match_id: int) -> int | None:
    """The tournament of a match (None: no such match), from process memory after the first read."""
    from tournaments.models import Match

    return _kept_tournament_id(_MATCH_TOURNAMENTS, match_id, lambda: Match.objects.filter(pk=match_id).values_list(
        "round__tournament_id", flat=True).first())


def published_match_tournament_id(match_id: int) -> int | None:
    """The tournament of a match whose round is published (None: no such match, or its round is not published
    yet), from process memory after the first read that found it (a published round is never unpublished)."""
    from tournaments.models import Match

    return _kept_tournament_id(_PUBLISHED_MATCH_TOURNAMENTS, match_id, lambda: Match.objects.filter(
        pk=match_id, round__published_at__isnull=False).values_list("round__tournament_id", flat=True).first())


def round_tournament_id(round_id: int) -> int | None:
    """The tournament of a round (None: no such round), from process memory after the first read."""
    from tournaments.models import Round

    return _kept_tournament_id(_ROUND_TOURNAMENTS, round_id, lambda: Round.objects.filter(pk=round_id).values_list(
        "tournament_id", flat=True).first())


def public_stamps(tournament_id: int, *keys: str) -> tuple[str | None, bool]:
    """The stamps of ``keys`` joined (None: no cache) and whether the tournament is public.

    ``keys`` must hold ``tournament_key(tournament_id)``. One cache round trip when the fact is kept
    under the current stamp; otherwise one query, whose answer is kept under the stamp read before it.
    A tournament that is not public (or does not exist) makes no stamps.
    """
    from tournaments import access  # who may see is access's rule (it imports the models: not at import time)

    tkey, pkey = tournament_key(tournament_id), public_key(tournament_id)
    try:
        found = cache.get_many((*keys, pkey))
    except Exception:  # noqa: BLE001
        _unavailable("read")
        found = None
    current = None if found is None else found.get(tkey)
    kept = None if found is None else found.get(pkey)
    if current is not None and isinstance(kept, str) and kept.rpartition(":")[0] == str(current):
        if not kept.endswith(":1"):
            return None, False
    elif not access.is_public(tournament_id):
        if current is not None:
            _keep(pkey, f"{current}:0")
        return None, False
    elif current is not None:  # the fact read under the stamp read before it
        _keep(pkey, f"{current}:1")
    if found is None or any(k not in found for k in keys):
        found = _read(keys)
        if found is None:
            return None, True
    return ".".join(str(found[k]) for k in keys), True


def fact_keys(tournament_id: int, name: str) -> tuple[str, str]:
    """The keys ``tournament_fact`` reads: the tournament's stamp and the fact kept under it."""
    return tournament_key(tournament_id), f"v:fact:{name}:{tournament_id}"


def tournament_fact(tournament_id: int, name: str, compute, found: dict | None = None):
    """A fact about a tournament (``compute()``, any picklable value), kept in the cache under its stamp.

    Believed while the tournament's stamp is the one it was read under (``public_stamps``' reasoning: the
    stamp is read, or made, before ``compute()`` runs). Whatever the fact depends on must therefore bump
    ``tournament_changed`` when it is written. Without a cache, ``compute()`` every time. ``found``: what
    the cache held under ``fact_keys`` when the caller read them (``commit_cache``); a missing stamp is
    then made as without it.
    """
    tkey, fkey = fact_keys(tournament_id, name)
    if found is None or tkey not in found:
        found = _read((tkey,), (fkey,))
    if found is None:
        return compute()
    current, kept = found[tkey], found.get(fkey)
    if isinstance(kept, tuple) and len(kept) == 2 and kept[0] == current:
        return kept[1]
    value = compute()
    _keep(fkey, (current, value))
    return value


def _keep(key: str, value) -> None:
    try:
        cache.set(key, value, timeout=24 * 3600)
    except Exception:  # noqa: BLE001 - not kept: read again next time
        pass


def etag(stamp: str, *parts) -> str:
    """A strong ETag from a stamp and whatever else changes the body (language, path, viewer...)."""
    raw = "|".join([stamp, *(str(p) for p in parts)])
    return '"v%s"' % hashlib.blake2b(raw.encode(), digest_size=16).hexdigest()


def bump_now(*keys: str) -> None:
    """Replace the stamps of ``keys`` now (a failure is logged: the keys may then serve stale until they expire)."""
    try:
        token = _token()
        cache.set_many({k: token for k in keys}, timeout=None)
    except Exception as exc:  # noqa: BLE001
        _not_replaced(keys, exc)


def _not_replaced(keys, exc: BaseException) -> None:
    """Stamps that could not be replaced (logged) are deleted if the cache lets us: a missing key is a fresh stamp."""
    _unavailable("write", exc)
    try:
        cache.delete_many(keys)
    except Exception:  # noqa: BLE001
        pass


def bump(*keys: str, at_commit: bool = False) -> None:
    """Replace the stamps of ``keys`` now and again when the current transaction commits.

    Now, so that a reader inside this transaction (a test, a service answering) sees the change; and
    on commit, so that an answer built from the old rows under the first new stamp (a reader that
    came between the two) is never served again. Outside a transaction, once.

    ``at_commit``: the caller's block reads no stamp before it commits (the result services, whose
    transaction is their own): when that block is the outermost, only the commit's bump is made, a
    round trip to the cache less. A reader that comes in the moment between the commit and its bump
    is answered under the old stamp (a 304 to the old ETag) once; its next request sees the change,
    as a live page's next poll does. Nested in another block (a caller's, a test's), both are made.
    """
    if not keys:
        return
    connection = transaction.get_connection()
    if connection.in_atomic_block and not (at_commit and len(connection.atomic_blocks) == 1):
        bump_now(*keys)
    token = _token()
    commit_cache.at_commit([("set", key, token, None) for key in keys],
                           lambda replies: _bumped(keys, replies))


def _bumped(keys: tuple[str, ...], replies) -> None:
    """After the commit's bump (``commit_cache``): a failure is handled as ``bump_now`` handles it."""
    if isinstance(replies, Exception):
        _not_replaced(keys, replies)


def match_changed(match_id: int, tournament_id: int | None, *, at_commit: bool = False) -> None:
    bump(match_key(match_id), *((results_key(tournament_id),) if tournament_id else ()), at_commit=at_commit)


def results_changed(tournament_id: int) -> None:
    bump(results_key(tournament_id), tournament_key(tournament_id))


def standings_changed(tournament_id: int) -> None:
    bump(standings_key(tournament_id))


def tournament_changed(tournament_id: int) -> None:
    bump(tournament_key(tournament_id))


def names_changed() -> None:
    bump(NAMES_KEY)


# -- rounds not yet published ---------------------------------------------------------------------------------------

def unpublished_changed(tournament_id: int, round_id: int, *also: str) -> None:
    """A round not yet published, or one of its matches, changed: the stamp of the answers that show such rounds
    (``unpublished_key``) and ``also`` (a match's own) are replaced, the public's are not, so a visitor's ETag stays
    until the round is published. Checked again once committed: a round published meanwhile (its own bump came
    before this commit, or this writer's copy of the round was older than its publication) has the public's
    stamps replaced then."""
    bump(unpublished_key(tournament_id), *also)
    transaction.on_commit(lambda: _published_since(tournament_id, round_id))


def _published_since(tournament_id: int, round_id: int) -> None:
    from tournaments.models import Round

    if Round.objects.filter(pk=round_id, published_at__isnull=False).exists():
        bump_now(results_key(tournament_id), tournament_key(tournament_id))


def round_saved(rnd) -> None:
    """A round saved or deleted (its status, clock, seed, publication...): the results' stamps, of the public's
    answers when it is published, else of the answers that show it alone."""
    if rnd.published_at is None:
        unpublished_changed(rnd.tournament_id, rnd.pk)
    else:
        results_changed(rnd.tournament_id)


def match_saved(match, *, at_commit: bool = False) -> None:
    """A service saved ``match`` (its round loaded): ``match_changed``, or for a round not yet published the
    match's stamp and the unpublished answers' (``unpublished_changed``)."""
    rnd = match.round
    if rnd.published_at is None:
        unpublished_changed(rnd.tournament_id, rnd.pk, match_key(match.pk))
    else:
        match_changed(match.pk, rnd.tournament_id, at_commit=at_commit)


# -- signals ------------------------------------------------------------------------------------------------------------

def _match_round(match) -> tuple[int | None, bool]:
    """The tournament of a match and whether its round is published, from its loaded round when there is one (the
    hand services load it; a copy older than the round's publication is caught by ``unpublished_changed``)."""
    rnd = match._state.fields_cache.get("round")
    if rnd is not None:
        return rnd.tournament_id, rnd.published_at is not None
    from tournaments.models import Round

    found = Round.objects.filter(pk=match.round_id).values_list("tournament_id", "published_at").first()
    return (None, True) if found is None else (found[0], found[1] is not None)


def _on_match(sender, instance, **kwargs):
    tournament_id, published = _match_round(instance)
    if published or tournament_id is None:
        match_changed(instance.pk, tournament_id)
    else:
        unpublished_changed(tournament_id, instance.round_id, match_key(instance.pk))


def _on_round(sender, instance, **kwargs):
    round_saved(instance)


def _on_tournament_child(sender, instance, **kwargs):
    tournament_changed(instance.tournament_id)


def _on_tournament(sender, instance, **kwargs):
    tournament_changed(instance.pk)


def _on_snapshot(sender, instance, **kwargs):
    standings_changed(instance.tournament_id)


def _on_name(sender, instance, **kwargs):
    names_changed()


def connect() -> None:
    """Connect the model signals that bump the stamps (once, from ``TournamentsConfig.ready``)."""
    from django.db.models.signals import post_delete, post_save

    from tournaments import models as m

    receivers = [(_on_match, m.Match), (_on_round, m.Round), (_on_tournament, m.Tournament),
                 (_on_tournament_child, m.Entry), (_on_tournament_child, m.Stage), (_on_snapshot, m.StandingsSnapshot),
                 (_on_name, m.Club), (_on_name, m.Player), (_on_name, m.Team)]
    for name, signal in (("save", post_save), ("delete", post_delete)):
        for receiver, model in receivers:
            signal.connect(receiver, sender=model, dispatch_uid=f"versions-{model.__name__}-{name}")
