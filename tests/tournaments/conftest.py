"""Fixtures for the tournaments app's tests."""

import pytest

from tests.factories import MatchFactory, TournamentFactory, UserFactory


@pytest.fixture
def scorekeeper(db):
    return UserFactory(username="scorekeeper")


@pytest.fixture
def belgian_match(db):
    """A Belgian Manille match, best of 3 boams to 101."""
    tournament = TournamentFactory(variant="belgian-manille", best_of=3)
    return MatchFactory(round__tournament=tournament)
