"""The director's desk through the API in an individual event: a withdrawal mid-match and a penalty name one player
(``player``); naming nobody is refused in that action's own words, in the reader's language, nothing changed."""

import pytest

from tests.api.conftest import client_for
from tests.factories import UserFactory
from tests.web.conftest import enter_hands
from tests.web.workspace.individual import individual_event, seat_round
from tournaments.models import DirectorAction, Match

pytestmark = pytest.mark.django_db

WORDS = {
    "en": "Name the player who withdraws: the id of one of this table's players.",
    "nl": "Geef de speler die opgeeft aan: de id van een van de spelers van deze tafel.",
    "fr": "Indiquez le joueur qui abandonne : l'id d'un des joueurs de cette table.",
    "es": "Indique el jugador que se retira: el id de uno de los jugadores de esta mesa.",
    "ca": "Indiqueu el jugador que es retira: l'id d'un dels jugadors d'aquesta taula.",
}


@pytest.fixture
def table():
    tournament = individual_event(8, minutes=None, public=True)
    seat_round(tournament, 1)
    director = UserFactory(username="arbiter")
    tournament.directors.add(director)
    match = Match.objects.get(round__tournament=tournament, table=1)
    enter_hands(match, 1)  # under way
    return tournament, match, client_for(director)


@pytest.mark.parametrize("lang", sorted(WORDS))
@pytest.mark.parametrize("player", [None, "", "someone", True])
def test_a_withdrawal_naming_no_player_is_refused_in_its_own_words(table, lang, player):
    tournament, match, client = table
    params = {} if player is None else {"player": player}
    answer = client.post(f"/api/v1/tournaments/{tournament.pk}/actions/",
                         {"kind": "withdrawal", "match": match.pk, "params": params, "reason": "felt ill"},
                         format="json", HTTP_ACCEPT_LANGUAGE=lang)
    assert answer.status_code == 400, answer.content
    (error,) = answer.json()["errors"]
    assert error["code"] == "action_params" and error["attr"] == "player"
    assert error["detail"] == WORDS[lang]
    assert not DirectorAction.objects.exists()


def test_a_penalty_naming_no_player_is_refused_in_its_own_words(table):
    tournament, match, client = table
    answer = client.post(f"/api/v1/tournaments/{tournament.pk}/actions/",
                         {"kind": "penalty", "match": match.pk, "params": {"points": 5}, "reason": "slow play"},
                         format="json")
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "Name the player whose game points are taken off" in body and "Name the players absent" not in body
