"""Fold hands into a game and games into a match: pure functions of the settings and the hands."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from .hand import game_context, initial_state, score_in_game
from .types import (
    SIDES, GameResult, GameSettings, GameState, Hand, MatchResult, RuleViolation, Violation, ahead, bad, shown,
)
from .variants import get_variant


def fold_game(settings: GameSettings, hands: Sequence[Hand], *, state: GameState | None = None,
              start: int = 0) -> GameResult:
    """Score every hand of a game from the start; raise RuleViolation tagged with the bad hand's index.

    A corrected earlier hand simply re-folds the rest. A hand after the game is
    decided is ``game_over``.

    ``state`` and ``start``: the game's state after its first ``start`` hands (the ``state`` of an
    earlier fold of them); only ``hands``, the ones that follow, are then scored, tagged with their
    index in the game, and only their results are returned. The totals, winner, next dealer and
    multiplier are those of a fold of the whole game. ``hands`` must not be empty then.
    """
    if state is not None and not hands:
        raise ValueError("fold_game: a state to continue from needs at least one hand")
    rules = get_variant(settings.variant).rules(settings.options)
    ctx = game_context(rules, settings)
    if state is None:
        state = initial_state(rules, ctx)
    results = []
    for i, hand in enumerate(hands, start):
        try:
            result = score_in_game(rules, ctx, hand, state)
        except RuleViolation as exc:
            raise RuleViolation([replace(v, hand_index=i) for v in exc.violations]) from None
        results.append(result)
        state = result.state
    if results:
        last = results[-1]
        next_dealer = None if state.winner is not None else last.next_dealer
        next_multiplier = last.next_multiplier
    else:
        next_dealer = settings.first_dealer
        next_multiplier = rules.round_multiplier(0)
    return GameResult(
        hands=tuple(results), totals=dict(state.totals), winner=state.winner,
        finished=state.winner is not None, next_dealer=next_dealer,
        next_multiplier=next_multiplier, state=state,
    )


def fold_match(best_of: int, game_winners: Sequence[str | None]) -> MatchResult:
    """Return a best-of-N match's state from its games' winners ("ns", "ew", "draw", None = in progress).

    First to ceil(N/2) wins. A drawn game counts for neither; after N finished
    games with no one at ceil(N/2), the side with more wins takes the match, else
    it is a "draw". A game listed after the match is decided is ``game_over``;
    an unfinished game (None) may only be the last one.
    """
    if isinstance(best_of, bool) or not isinstance(best_of, int) or best_of < 1:
        raise RuleViolation(bad("best_of", "minimum", field="best_of", minimum=1, value=shown(best_of)))
    needed = (best_of + 1) // 2
    won = {"ns": 0, "ew": 0}
    played = 0
    winner = None
    for i, game in enumerate(game_winners):
        if winner is not None:
            raise RuleViolation(Violation("game_over", "games",
                                          {"reason": "match_decided_before", "winner": winner, "game": i + 1}))
        if game is None:
            if i != len(game_winners) - 1:
                raise RuleViolation(bad("games", "game_unfinished", game=i + 1, next=i + 2))
            break
        if game not in SIDES and game != "draw":
            raise RuleViolation(bad("games", "game_winner", game=i + 1, value=shown(game)))
        played += 1
        if game in SIDES:
            won[game] += 1
        if won["ns"] >= needed or won["ew"] >= needed:
            winner = "ns" if won["ns"] >= needed else "ew"
        elif played >= best_of:
            winner = ahead(won)
    return MatchResult(games_won=won, winner=winner, finished=winner is not None, games_needed=needed)
