"""Who may see and do what (docs/roles.md), cell by cell, and the two ways of asking agree on every cell.

Roles (anonymous, signed in with no role, the club's manager, organizer, director, scorekeeper, a volunteer: staff in
the Volunteers group with no role, staff, superuser) × a public or private tournament × the object asked
about (the tournament, its round, match and hand, the club it is held in) × the action (see, keep score,
organize). Each cell is answered by the ORM path (``visible_*``, ``can_keep_score``, ``is_organizer``,
``is_club_manager``, ``is_public``) and, where the question is about a tournament's objects, by the SQL path:
``access.keeps_score_sql`` run directly and through the hand POST's lock (``services.games.match_lock``).

The suite runs on one database; ``test_the_matrix_holds_on_sqlite_too`` runs this file again on SQLite
when the suite runs on PostgreSQL.
"""

import os
import subprocess
import sys

import pytest
from django.contrib.auth.models import AnonymousUser, Group
from django.db import connection

from tests.factories import ClubFactory, MatchFactory, RoundFactory, TournamentFactory, UserFactory
from tournaments import access
from tournaments.models import Hand, Match, Tournament
from tournaments.services import games
from tournaments.services.games import game_start, match_lock
from tournaments.services.hands import hand_enter

ROLES = ["anonymous", "signed_in", "club_manager", "organizer", "director", "scorekeeper", "volunteer", "staff",
         "superuser"]
KINDS = ["tournament", "round", "match", "hand", "club"]
ACTIONS = ["see", "keep_score", "organize", "direct"]

#: docs/roles.md: who sees a private tournament and everything in it (a public one: everybody).
SEES_PRIVATE = {"organizer", "director", "scorekeeper", "staff", "superuser"}
#: "start a game, enter hands, correct a hand, delete the last hand": its own (organizer, scorekeeper), staff all.
KEEPS_SCORE = {"organizer", "director", "scorekeeper", "staff", "superuser"}
#: "change or delete a tournament; name its organizers and scorekeepers; pair; enter teams": its own, staff all.
ORGANIZES = {"organizer", "staff", "superuser"}
#: "settle a disputed result, confirm one on paper, change a confirmed or final result": organizers and directors.
DIRECTS = {"organizer", "director", "staff", "superuser"}
#: "change or delete a club; register players; form teams": its club's managers, staff all.
MANAGES_CLUB = {"club_manager", "staff", "superuser"}


def expected(role: str, public: bool, kind: str, action: str) -> bool | None:
    """The answer docs/roles.md gives (None: the question does not apply, keeping score of a club)."""
    if kind == "club":
        return {"see": True, "keep_score": None, "organize": role in MANAGES_CLUB, "direct": None}[action]
    if action == "see":
        return public or role in SEES_PRIVATE
    return role in {"keep_score": KEEPS_SCORE, "organize": ORGANIZES, "direct": DIRECTS}[action]


def make_user(role: str, world: dict):
    if role == "anonymous":
        return AnonymousUser()
    user = UserFactory(username=role, is_staff=role in ("volunteer", "staff", "superuser"),
                       is_superuser=role == "superuser")
    if role == "volunteer":
        user.groups.add(Group.objects.get_or_create(name=access.VOLUNTEERS)[0])
    elif role == "club_manager":
        world["club"].managers.add(user)
    elif role == "organizer":
        world["tournament"].organizers.add(user)
    elif role == "scorekeeper":
        world["tournament"].scorekeepers.add(user)
    elif role == "director":
        world["tournament"].directors.add(user)
    return user


def make_world(public: bool) -> dict:
    """A tournament held in a club's name, a round, a match with a game and one hand."""
    club = ClubFactory()
    tournament = TournamentFactory(club=club, public=public, best_of=3)
    rnd = RoundFactory(tournament=tournament)
    match = MatchFactory(round=rnd)
    game_start(match=match, first_dealer="N")
    hand, _ = hand_enter(match=match, data={"dealer": "N", "trump": "H", "tricks": {"ns": 4, "ew": 4},
                                            "points": {"ns": 37, "ew": 23}})
    return {"club": club, "tournament": tournament, "round": rnd, "match": match, "hand": hand}


def orm_answer(user, world: dict, kind: str, action: str) -> bool | None:
    """The cell asked through the querysets and the role checks."""
    obj, tournament_id = world[kind], world["tournament"].pk
    if kind == "club":
        return {"see": type(obj).objects.filter(pk=obj.pk).exists(), "keep_score": None,
                "organize": access.is_club_manager(user, obj.pk), "direct": None}[action]
    if action == "see":
        visible = {"tournament": access.visible_tournaments, "round": access.visible_rounds,
                   "match": access.visible_matches, "hand": access.visible_hands}[kind](user)
        return visible.filter(pk=obj.pk).exists()
    if action == "keep_score":
        return access.can_keep_score(user, tournament_id)
    if action == "direct":
        return access.is_director(user, tournament_id)
    return access.is_organizer(user, tournament_id)


#: Each kind's way up to its tournament, for the SQL path's statement.
UP = {"tournament": "", "round": "JOIN {round} r ON r.id = o.id JOIN {tournament} t ON t.id = r.tournament_id",
      "match": "JOIN {match} m ON m.id = o.id JOIN {round} r ON r.id = m.round_id "
               "JOIN {tournament} t ON t.id = r.tournament_id",
      "hand": "JOIN {hand} h ON h.id = o.id JOIN {game} g ON g.id = h.game_id JOIN {match} m ON m.id = g.match_id "
              "JOIN {round} r ON r.id = m.round_id JOIN {tournament} t ON t.id = r.tournament_id"}


def sql_answer(user, world: dict, kind: str, action: str) -> bool | None:
    """The cell asked through ``keeps_score_sql``, run directly from the object up to its tournament (None: the
    SQL path does not answer this question: clubs, organizing)."""
    if kind == "club" or action in ("organize", "direct"):
        return None
    tables = {name: connection.ops.quote_name(model._meta.db_table) for name, model in
              (("tournament", Tournament), ("round", world["round"]._meta.model), ("match", Match),
               ("game", Hand.game.field.related_model), ("hand", Hand))}
    source = f"{tables[kind]} o {UP[kind].format(**tables)}" if kind != "tournament" else f"{tables['tournament']} t"
    where = "o.id" if kind != "tournament" else "t.id"
    with connection.cursor() as c:
        c.execute(f"SELECT t.public, {access.keeps_score_sql('t.id')} FROM {source} WHERE {where} = %s",
                  [*access.keeps_score_params(user), world[kind].pk])
        public, listed = c.fetchone()
    if action == "see":
        return access.can_see_listed(user, public, listed)
    return access.can_keep_score_listed(user, listed)


def lock_answer(user, match_id: int, action: str) -> bool:
    """The cell asked through the hand POST's lock: seen when the lock finds the match, keeps score as it says
    (a match not seen is not scored either)."""
    try:
        match = match_lock(match_id, user)
    except Match.DoesNotExist:
        return False
    return True if action == "see" else match.keeps_score


@pytest.mark.django_db
@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
def test_every_cell_as_docs_roles_says_by_the_orm_and_by_the_sql(role, public):
    world = make_world(public)
    user = make_user(role, world)
    wrong = []
    for kind in KINDS:
        for action in ACTIONS:
            want = expected(role, public, kind, action)
            answers = {"orm": orm_answer(user, world, kind, action), "sql": sql_answer(user, world, kind, action)}
            if kind in ("match", "hand") and action not in ("organize", "direct"):  # a hand is locked through its match
                answers["lock"] = lock_answer(user, world["match"].pk, action)
            for path, answer in answers.items():
                if answer is not None and answer != want:
                    wrong.append(f"{kind} {action} by {path}: {answer}, expected {want}")
    assert not wrong, wrong


@pytest.mark.django_db
def test_the_admin_lets_in_the_staff_and_the_volunteers_only():
    world = make_world(True)
    signs_in = {role: access.signs_in_to_admin(make_user(role, world)) for role in ROLES}
    assert signs_in == {role: role in ("volunteer", "staff", "superuser") for role in ROLES}


@pytest.mark.django_db
@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
def test_anyone_sees_a_public_tournament_and_nobody_unlisted_a_private_one(public):
    world = make_world(public)
    tournament = world["tournament"]
    assert access.is_public(tournament.pk) is public
    assert access.visible_tournaments(None).filter(pk=tournament.pk).exists() is public
    assert access.is_public(987654) is False


@pytest.mark.django_db
def test_the_lock_reads_the_roles_in_the_same_statement():
    world = make_world(False)
    user = make_user("scorekeeper", world)
    sql = games._lock_sql(connection.vendor, True)
    assert access.keeps_score_sql(f"t.{connection.ops.quote_name('id')}") in sql
    assert len(access.keeps_score_params(user)) == sql.count("%s") - 1  # and the match's id
    assert match_lock(world["match"].pk, user).keeps_score


def test_no_module_but_access_names_a_role_table():
    """The lists of organizers, scorekeepers and managers are read in access.py only (writes name them too)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = []
    for top in ("tournaments", "api", "web", "webhooks"):
        for folder, _dirs, files in os.walk(os.path.join(root, top)):
            if "migrations" in folder:
                continue
            for name in files:
                path = os.path.join(folder, name)
                if name.endswith(".py") and path != os.path.join(root, "tournaments", "access.py"):
                    text = open(path, encoding="utf-8").read()
                    if any(word in text for word in ("organizers.through", "scorekeepers.through",
                                                     "directors.through", "managers.through")):
                        found.append(os.path.relpath(path, root))
    assert not found, found


def test_the_matrix_holds_on_sqlite_too(tmp_path):
    """Run this file again on SQLite (the zero-setup run) when the suite runs on PostgreSQL."""
    if connection.vendor != "postgresql":
        pytest.skip("this run is the SQLite run")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'access.sqlite3'}"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not sqlite_too",
                          os.path.abspath(__file__)], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-500:]
