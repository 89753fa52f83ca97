"""The organizer's pages of a championship-sized event read a bounded number of queries, however many players or
tables: the entries page of 500 players (a page of fifty), a round of 136 tables with its seats, the code page."""

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.web.workspace.individual import individual_event, seat_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def championship(client):
    user = UserFactory(username="orga")
    client.force_login(user)
    t = individual_event(544, organizer=user, name="BK", slug="bk")
    seat_round(t, 1)
    return t


def test_a_championships_pages_read_a_bounded_number_of_queries(client, championship,
                                                                  django_assert_max_num_queries):
    t = championship
    with django_assert_max_num_queries(25):
        page = client.get(reverse("ws:entries", args=[t.slug]))
    assert page.status_code == 200 and "Page 1 of 11" in page.content.decode()
    with django_assert_max_num_queries(25):
        page = client.get(reverse("ws:round", args=[t.slug, 1]))
    assert page.content.decode().count('class="org-table"') == 136
    with django_assert_max_num_queries(20):
        assert client.get(reverse("ws:score", args=[t.slug])).status_code == 200
    with django_assert_max_num_queries(15):
        assert client.get(reverse("ws:tournament", args=[t.slug])).status_code == 200
