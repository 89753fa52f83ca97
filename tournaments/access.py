"""Who may see and write what (docs/api.md "Auth"), for every door: the API, the site and the admin.

Reads of public tournaments need no login; a private tournament (and its rounds, matches and
hands) is visible only to staff and to its organizers, directors and scorekeepers. Writes: staff
anything; a club's managers the club, its players and teams; a tournament's organizers the
tournament, its entries and rounds; its organizers, directors and scorekeepers its match results;
its organizers and directors (``is_director``) settle disputed results and change confirmed ones.

"Staff" here means unscoped staff (``is_unscoped``): superusers, and staff outside the "Volunteers"
group. A volunteer is staff only to sign in to the admin; everywhere, the admin included, they have
just what their roles give them.
"""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from tournaments.models import Club, Hand, Match, Round, Tournament


VOLUNTEERS = "Volunteers"


def _user(user):
    return user if user is not None and user.is_authenticated else None


def is_unscoped(user) -> bool:
    """Tell whether ``user`` sees and may do everything: a superuser, or staff outside the Volunteers group."""
    user = _user(user)
    if user is None or not user.is_staff:
        return False
    if user.is_superuser:
        return True
    volunteer = getattr(user, "_is_volunteer", None)
    if volunteer is None:  # asked once per request's user object
        volunteer = user._is_volunteer = user.groups.filter(name=VOLUNTEERS).exists()
    return not volunteer


def signs_in_to_admin(user) -> bool:
    """Tell whether ``user`` may sign in to the admin: an active staff account (what they see there is their roles')."""
    user = _user(user)
    return user is not None and user.is_active and user.is_staff


def visible_tournaments(user) -> QuerySet:
    """Return the tournaments ``user`` may see."""
    qs = Tournament.objects.all()
    user = _user(user)
    if is_unscoped(user):
        return qs
    if user is None:
        return qs.filter(public=True)
    return qs.filter(
        Q(public=True)
        | Q(pk__in=Tournament.organizers.through.objects.filter(user_id=user.pk).values("tournament_id"))
        | Q(pk__in=Tournament.scorekeepers.through.objects.filter(user_id=user.pk).values("tournament_id"))
        | Q(pk__in=Tournament.directors.through.objects.filter(user_id=user.pk).values("tournament_id"))
    )


# -- rounds published on purpose (issue 28) ---------------------------------------------------------------------
# A round not yet published (``Round.published_at`` empty; ``Tournament.auto_publish`` off) exists for its
# tournament's organizers, directors and scorekeepers (and staff) alone: to everyone else its round, matches,
# hands, seats, sheets and table codes are a 404 and absent from every list. The functions below (and
# ``table_code_state``) are the one place that decides it for a reader; the public pages and live regions, whose
# renderings everyone shares, read the published rounds alone (``Round.objects.published()``).


def sees_unpublished(user, tournament_id) -> bool:
    """Tell whether ``user`` sees the tournament's rounds before they are published: staff, its organizers,
    directors and scorekeepers (one query; anonymous: none)."""
    user = _user(user)
    if user is None:
        return False
    return is_unscoped(user) or scorekept_tournaments(user).filter(pk=tournament_id).exists()


def published_q(user, prefix: str = "") -> Q:
    """A filter on rounds (``prefix``: the path to the round, ``"round__"`` for matches) keeping those ``user``
    sees: the published ones, and the others of the tournaments they organize, direct or keep score of."""
    seen = Q(**{f"{prefix}published_at__isnull": False})
    if _user(user) is None:
        return seen
    return seen | Q(**{f"{prefix}tournament__in": scorekept_tournaments(user)})


def tournament_rounds(user, tournament) -> QuerySet:
    """Return the rounds of ``tournament`` (one ``user`` may see) that ``user`` sees (``sees_unpublished``)."""
    rounds = Round.objects.filter(tournament=tournament)
    return rounds if sees_unpublished(user, tournament.pk) else rounds.published()


def visible_rounds(user) -> QuerySet:
    """Return the rounds ``user`` may see: of the tournaments they may see, published or theirs to run."""
    rounds = Round.objects.filter(tournament__in=visible_tournaments(user))
    return rounds if is_unscoped(user) else rounds.filter(published_q(user))


def visible_matches(user) -> QuerySet:
    """Return the matches ``user`` may see (those of ``visible_rounds``)."""
    matches = Match.objects.filter(round__tournament__in=visible_tournaments(user))
    return matches if is_unscoped(user) else matches.filter(published_q(user, "round__"))


def visible_hands(user) -> QuerySet:
    """Return the hands ``user`` may see (those of ``visible_matches``)."""
    hands = Hand.objects.filter(game__match__round__tournament__in=visible_tournaments(user))
    return hands if is_unscoped(user) else hands.filter(published_q(user, "game__match__round__"))


def _staff_or_listed(user, through, **keys) -> bool:
    """Tell whether ``user`` is staff or listed in the many-to-many table ``through`` under ``keys``."""
    user = _user(user)
    if user is None:
        return False
    return is_unscoped(user) or through.objects.filter(user_id=user.pk, **keys).exists()


def is_public(tournament_id) -> bool:
    """Tell whether the tournament is public, so that anyone may see it (False: private, or no such tournament)."""
    return visible_tournaments(None).filter(pk=tournament_id).exists()


def _KEEPS_SCORE_LISTS():  # noqa: N802 - the lists an account keeping a tournament's score is on
    return (Tournament.organizers.through, Tournament.directors.through, Tournament.scorekeepers.through)


def keeps_score_sql(tournament_id_sql: str) -> str:
    """Return a SQL boolean: whether the user is on the organizers', directors' or scorekeepers' list of a tournament.

    For a statement that reads a tournament and its visitor's roles at once (the hand POST's lock,
    ``services.games.match_lock``). ``tournament_id_sql`` is the tournament's id in that statement
    (``"t"."id"``); the fragment's parameters are ``keeps_score_params(user)``, in its order. Staff is
    not in it: ``can_keep_score_listed`` and ``can_see_listed`` take its answer and add them.
    """
    quote = connection.ops.quote_name
    lists = []
    for through in _KEEPS_SCORE_LISTS():
        meta = through._meta
        tournament, user = (quote(meta.get_field(name).column) for name in ("tournament", "user"))
        lists.append(f"EXISTS (SELECT 1 FROM {quote(meta.db_table)} x "
                     f"WHERE x.{tournament} = {tournament_id_sql} AND x.{user} = %s)")
    return f"({' OR '.join(lists)})"


def keeps_score_params(user) -> list:
    """Return the parameters of ``keeps_score_sql`` for ``user`` (anonymous: on no list)."""
    user = _user(user)
    return [None if user is None else user.pk] * len(_KEEPS_SCORE_LISTS())


def can_keep_score_listed(user, listed) -> bool:
    """Tell whether ``user`` may keep score of a tournament, given ``keeps_score_sql``'s answer (``listed``)."""
    return is_unscoped(user) or (_user(user) is not None and bool(listed))


def can_see_listed(user, public: bool, listed) -> bool:
    """Tell whether ``user`` may see a tournament, given whether it is public and ``keeps_score_sql``'s answer."""
    return bool(public) or can_keep_score_listed(user, listed)


def is_club_manager(user, club_id) -> bool:
    """Tell whether ``user`` is staff or a manager of the club."""
    return _staff_or_listed(user, Club.managers.through, club_id=club_id)


def is_organizer(user, tournament_id) -> bool:
    """Tell whether ``user`` is staff or an organizer of the tournament."""
    return _staff_or_listed(user, Tournament.organizers.through, tournament_id=tournament_id)


def can_direct(user, tournament_id) -> bool:
    """Tell whether ``user`` may take the director's actions in the tournament (tournaments/services/desk.py):
    staff, its organizers and its directors (the one check of every door)."""
    return is_director(user, tournament_id)


def is_director(user, tournament_id) -> bool:
    """Tell whether ``user`` is a director of the tournament: staff, an organizer, or on its directors' list.

    A director settles a disputed result, confirms one on paper, and alone changes a confirmed or final one.
    """
    return (is_organizer(user, tournament_id)
            or _staff_or_listed(user, Tournament.directors.through, tournament_id=tournament_id))


def can_keep_score(user, tournament_id) -> bool:
    """Tell whether ``user`` is staff, an organizer, a director or a scorekeeper of the tournament."""
    return (is_director(user, tournament_id)
            or _staff_or_listed(user, Tournament.scorekeepers.through, tournament_id=tournament_id))


def directed_tournaments(user) -> QuerySet:
    """Return the tournaments ``user`` directs: organizes, or is listed as a director of (staff or not)."""
    user = _user(user)
    if user is None:
        return Tournament.objects.none()
    return Tournament.objects.filter(
        Q(pk__in=Tournament.organizers.through.objects.filter(user_id=user.pk).values("tournament_id"))
        | Q(pk__in=Tournament.directors.through.objects.filter(user_id=user.pk).values("tournament_id")))


def organized_tournaments(user) -> QuerySet:
    """Return the tournaments ``user`` is listed as an organizer of (staff or not: the admin's scope)."""
    user = _user(user)
    if user is None:
        return Tournament.objects.none()
    return Tournament.objects.filter(
        pk__in=Tournament.organizers.through.objects.filter(user_id=user.pk).values("tournament_id"))


def scorekept_tournaments(user) -> QuerySet:
    """Return the tournaments ``user`` organizes, directs or keeps score of (staff or not: the admin's scope)."""
    user = _user(user)
    if user is None:
        return Tournament.objects.none()
    return Tournament.objects.filter(
        Q(pk__in=Tournament.organizers.through.objects.filter(user_id=user.pk).values("tournament_id"))
        | Q(pk__in=Tournament.directors.through.objects.filter(user_id=user.pk).values("tournament_id"))
        | Q(pk__in=Tournament.scorekeepers.through.objects.filter(user_id=user.pk).values("tournament_id")))


def managed_clubs(user) -> QuerySet:
    """Return the clubs ``user`` is listed as a manager of (staff or not: the admin's scope)."""
    user = _user(user)
    if user is None:
        return Club.objects.none()
    return Club.objects.filter(pk__in=Club.managers.through.objects.filter(user_id=user.pk).values("club_id"))


def can_create_tournament(user) -> bool:
    """Tell whether ``user`` may create a tournament (its creator organizes it), by ``TOURNAMENT_CREATORS``:
    ``anyone`` signed in (the default), or only ``staff`` (``is_unscoped``), who then list its organizers.

    Not "club managers": anyone signed in may found a club and manage it, so that would bar nobody.
    Holding a tournament in a club's name is a second rule, ``clubs_for_tournaments``.
    """
    if _user(user) is None:
        return False
    return getattr(settings, "TOURNAMENT_CREATORS", "anyone") != "staff" or is_unscoped(user)


def clubs_for_tournaments(user) -> QuerySet:
    """Return the clubs ``user`` may hold a tournament in the name of: all for staff, else the clubs they manage."""
    if is_unscoped(user):
        return Club.objects.all()
    return managed_clubs(user)


# -- entry at the table by its code (both kinds of event) -------------------------------------------------------

#: How long a table's code keeps working after its match's result (the last change of a finished match).
TABLE_CODE_AFTER_RESULT = timedelta(minutes=30)
#: What ``table_code_state`` answers.
CODE_VALID, CODE_UNKNOWN, CODE_EXPIRED = "valid", "unknown", "expired"


def table_code_clean(code) -> str:
    """Return a code as typed on a phone in the form it is printed and stored: capitals, no spaces nor dashes."""
    return "".join(ch for ch in str(code or "").upper() if ch.isalnum())[:12]


def table_code_state(match: Match, code: str, now: datetime | None = None) -> str:
    """Tell whether ``code`` lets a phone without an account enter the results of ``match`` now.

    The code printed on a table's sheet binds to that one match of that one round: it works from the round's
    publication (its draw: a redraw makes new matches, with new codes, and the old sheet's codes bind to
    nothing) until ``TABLE_CODE_AFTER_RESULT`` after the match's result (a correction then moves the result's
    time, as it is a result again). ``unknown``: not this match's code (or the match has none: made before
    team matches got codes); ``expired``: the match's result is older than that; ``valid`` otherwise.
    """
    code = table_code_clean(code)
    if not code or not match.table_code or code != match.table_code or match.round.published_at is None:
        return CODE_UNKNOWN  # a round not yet published: its codes open nothing (issue 28)
    now = now or timezone.now()
    if match.status == Match.Status.FINISHED and match.updated_at + TABLE_CODE_AFTER_RESULT < now:
        return CODE_EXPIRED
    return CODE_VALID


def table_code_match(tournament_id, code, now: datetime | None = None) -> tuple[Match | None, str]:
    """Return the match of the tournament that ``code`` binds to and its state (``table_code_state``).

    Codes are unique within a round; two rounds of one event may share one by chance, so the match the code
    still works for is taken, the latest round's first; none: ``(None, "unknown")``; only expired ones: the
    latest, ``"expired"``.
    """
    code = table_code_clean(code)
    if not code:
        return None, CODE_UNKNOWN
    found = list(Match.objects.filter(round__tournament_id=tournament_id, table_code=code)
                 .select_related("round__tournament").order_by("-round__number"))
    states = [(m, table_code_state(m, code, now)) for m in found]
    for match, state in states:
        if state == CODE_VALID:
            return match, state
    # Only expired ones: the latest; a round not yet published binds nothing (``unknown``, no match named).
    return next(((m, state) for m, state in states if state == CODE_EXPIRED), (None, CODE_UNKNOWN))
