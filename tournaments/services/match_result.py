"""A match's result from its games under its length and the director's actions: plain values in, plain values
out (no database). ``tournaments.services.games.match_result_apply`` reads the match and writes the result.
"""

import scoring

from tournaments.models import Tournament


def games_needed(length: str, best_of: int, match_games: int | None) -> int:
    """The games a side needs to win the match: a majority of ``best_of``, every game of a ``games`` match, one
    of a timed match."""
    if length == Tournament.MatchLength.BEST_OF:
        return best_of // 2 + 1
    if length == Tournament.MatchLength.GAMES:
        return match_games or 1
    return 1


def desk_result(directives: list[dict], games: list[tuple], *, length: str, best_of: int, match_games: int | None,
                time_over: bool) -> tuple:
    """A match's result under the director's active actions, from its games (``(status, winner, total_ns,
    total_ew)`` each, in order): (games won ns, ew, points ns, ew, winner, finished, forfeit, decided by).

    Plain values in, plain values out (no database). In order of precedence: an adjusted result is the result;
    else a forfeit (one side absent: the other wins the games needed at its ``game_points`` each, 0 against;
    both absent: both lose, 0 each, no winner); else a withdrawal mid-match (``remaining``: the game in play goes
    to the opponents, its hands counting as played, the opponents' points raised to its ``game_points``
    (``stopped_game_points``), and the games still needed go to them at ``game_points`` each, the finished games
    standing; ``as_stands``: the match ends as it stands, the game in play counted for its points); else the
    games. Then the penalties'
    game points come off (before a ``games`` or timed match is judged on points), and a decision names the
    winner of a match that ends drawn.
    """
    kinds: dict[str, dict] = {}
    penalty = {"ns": 0, "ew": 0}
    for d in directives:
        if d["kind"] == "penalty":
            if "side" in d:  # (an individual event's penalty of one player is their standings total's)
                penalty[d["side"]] += int(d["points"])
        else:
            kinds[d["kind"]] = d
    finished_winners = [winner or None for status, winner, _, _ in games if status == "finished"]
    in_play = any(status != "finished" for status, *_ in games)
    points = [sum(g[2] for g in games), sum(g[3] for g in games)]
    decided_by, forfeit = "", ""
    if "adjusted" in kinds:
        a = kinds["adjusted"]
        won = {"ns": int(a["games_won_ns"]), "ew": int(a["games_won_ew"])}
        points = [int(a["points_ns"]) - penalty["ns"], int(a["points_ew"]) - penalty["ew"]]
        return won["ns"], won["ew"], points[0], points[1], a["winner"], True, "", "adjusted"
    if "forfeit" in kinds:
        absent = kinds["forfeit"]["absent"]
        if absent == "both":
            return 0, 0, -penalty["ns"], -penalty["ew"], "", True, "both", "forfeit"
        present, game_points = "ew" if absent == "ns" else "ns", int(kinds["forfeit"]["game_points"])
        needed = games_needed(length, best_of, match_games)
        won = {present: needed, absent: 0}
        pts = {present: needed * game_points - penalty[present], absent: -penalty[absent]}
        return won["ns"], won["ew"], pts["ns"], pts["ew"], present, True, absent, "forfeit"
    if "withdrawal" in kinds:
        w = kinds["withdrawal"]
        side = w["side"]
        other = "ew" if side == "ns" else "ns"
        decided_by = "withdrawal"
        winners = list(finished_winners)
        if w["award"] == "remaining":
            game_points = int(w["game_points"])
            index = {"ns": 0, "ew": 1}
            for status, _, ns, ew in games:
                if status != "finished":  # the game in play goes to the opponents (``stopped_game_points``)
                    played = {"ns": ns, "ew": ew}
                    points[index[other]] += stopped_game_points(played[other], game_points) - played[other]
                    winners.append(other)
            needed = games_needed(length, best_of, match_games)
            if length == Tournament.MatchLength.BEST_OF:
                more = max(0, needed - winners.count(other))
            elif length == Tournament.MatchLength.GAMES:
                more = max(0, needed - len(winners))
            else:
                more = 0
            winners += [other] * more
            points[index[other]] += more * game_points
        won = {"ns": winners.count("ns"), "ew": winners.count("ew")}
        finished, winner = True, _judged(won, (points[0] - penalty["ns"], points[1] - penalty["ew"]))
    else:
        if length == Tournament.MatchLength.BEST_OF:
            result = scoring.fold_match(best_of if finished_winners else 1, finished_winners)
            won, finished, winner = result.games_won, result.finished, result.winner
        else:
            won, finished, winner = match_length_result(
                length, match_games, finished_winners, (points[0] - penalty["ns"], points[1] - penalty["ew"]),
                in_play=in_play, time_over=time_over)
    points = [points[0] - penalty["ns"], points[1] - penalty["ew"]]
    winner = (winner or "") if finished else ""
    if finished and winner == "draw" and "decision" in kinds:
        winner, decided_by = kinds["decision"]["winner"], "decision"
    return won["ns"], won["ew"], points[0], points[1], winner, finished, forfeit, decided_by


def stopped_game_points(played: int, game_points: int) -> int:
    """The points the opponents of a side that withdraws score for the game in play, awarded to them: the
    game's ``game_points`` (its target, or the event's forfeit points), or what they had already scored when
    that is more. A game of a fixed number of deals has no target: without forfeit points (``game_points`` 0)
    the opponents win it with their points as played (docs/api.md, the director's desk)."""
    return max(played, game_points)


def _judged(won: dict, points: tuple[int, int]) -> str:
    """The winner of a match ended now: on games won, then on points, else a draw."""
    if won["ns"] != won["ew"]:
        return "ns" if won["ns"] > won["ew"] else "ew"
    if points[0] != points[1]:
        return "ns" if points[0] > points[1] else "ew"
    return "draw"


def match_length_result(length: str, games_wanted: int | None, winners: list[str | None], points: tuple[int, int],
                        *, in_play: bool, time_over: bool) -> tuple[dict, bool, str | None]:
    """A match of a number of games (``games``) or timed (``timed``): its games won, whether it is over, and its
    winner (``ns``, ``ew`` or ``draw``): on games won, then on points, else drawn.

    ``winners``: the finished games' winners in order (``draw`` for a drawn game); ``in_play``: a game is in
    play; ``time_over``: the round's clock had ended. A ``games`` match ends after ``games_wanted`` games; a
    timed one once the time is over with no game in play (the clock's rule decides how the game in play ends).
    """
    won = {"ns": winners.count("ns"), "ew": winners.count("ew")}
    if length == "games":
        finished = not in_play and len(winners) >= (games_wanted or 1)
    else:
        finished = not in_play and time_over
    if not finished:
        return won, False, None
    if won["ns"] != won["ew"]:
        return won, True, "ns" if won["ns"] > won["ew"] else "ew"
    if points[0] != points[1]:
        return won, True, "ns" if points[0] > points[1] else "ew"
    return won, True, "draw"


def after_tiebreak(finished: bool, winner: str, tiebreak_deals: int | None,
                   tiebreak: tuple | None) -> tuple[bool, str]:
    """A knockout match level after its length (``finished``, ``winner`` "draw") when its stage plays a tie-break
    game (``tiebreak_deals``): (finished, winner) once that game (``tiebreak``: its ``(status, winner, total_ns,
    total_ew)``, None before it starts) is won, else not finished yet: the tie-break game is its next game. Any
    other result stands as it is."""
    if not (finished and winner == "draw" and tiebreak_deals):
        return finished, winner
    if tiebreak is not None and tiebreak[0] == "finished" and tiebreak[1] in ("ns", "ew"):
        return True, tiebreak[1]
    return False, ""
