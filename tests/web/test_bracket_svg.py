"""The bracket drawn as SVG (web.bracket_svg): from plain data, no database."""

import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from tournaments.pairing.knockout import bracket_size, first_round, next_slot
from web.bracket_svg import BOX_H, BOX_W, BracketMatch, Side, bracket_svg, layout, round_names

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def boxes(root) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "bk-match" in g.get("class", "").split()]


def texts(el) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{NS}text")]


def played_bracket(n: int, *, decided_rounds: int | None = None, third_place: bool = False) -> list[BracketMatch]:
    """A knockout of ``n`` entrants ("Team 1".. by seed) played round by round, the better seed always winning."""
    name = {i: f"Team {i}" for i in range(1, n + 1)}
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    decided_rounds = rounds if decided_rounds is None else decided_rounds
    matches = []
    current = {p.table: (p.ns, p.ew) for p in first_round(list(range(1, n + 1)))}
    semi_losers = []
    for r in range(1, rounds + 1):
        nxt: dict[int, list] = {}
        for table, (a, b) in sorted(current.items()):
            decided = r <= decided_rounds
            if b is None:
                matches.append(BracketMatch(r, table, Side(name[a], seed=a), None, bye=True))
                winner = a
            else:
                ga, gb = (2, 1) if decided else (None, None)
                matches.append(BracketMatch(r, table, Side(name[a], a, ga), Side(name[b], b, gb),
                                            winner="ns" if decided else ""))
                winner = a
                if r == rounds - 1:
                    semi_losers.append(b)
            if not decided:
                continue
            t, side = next_slot(table)
            nxt.setdefault(t, [None, None])[0 if side == "ns" else 1] = winner
        if r > decided_rounds:
            break
        current = {t: tuple(v) for t, v in nxt.items()}
    if third_place and len(semi_losers) == 2 and decided_rounds >= rounds:
        a, b = sorted(semi_losers)
        matches.append(BracketMatch(rounds, 2, Side(name[a], a, 2), Side(name[b], b, 0), winner="ns",
                                    third_place=True))
    return matches


@pytest.mark.parametrize("n", [2, 4, 8, 16, 64])
def test_every_match_of_the_bracket_is_drawn_in_its_round_column(n):
    matches = played_bracket(n)
    root = parse(bracket_svg(n, matches, title="Knockout"))
    rounds = n.bit_length() - 1
    assert len(boxes(root)) == n - 1  # n/2 + n/4 + ... + 1
    # Each round's heading, in order; the last is the final.
    heads = [t for t in root.iter(f"{NS}text") if t.get("class") == "bk-head"]
    assert ["".join(h.itertext()) for h in heads] == round_names(rounds)
    assert round_names(rounds)[-1] == "Final"
    # The champion (seed 1) is named in the description and marked won in the final, not by colour alone.
    desc = root.find(f"{NS}desc").text
    assert "Winner: Team 1." in desc
    final = boxes(root)[-1]
    won = [g for g in final.iter(f"{NS}g") if g.get("class") == "bk-won"]
    assert len(won) == 1 and "✓" in texts(won[0]) and "Team 1" in texts(won[0])


def test_a_match_sits_midway_between_its_two_feeders_and_boxes_never_overlap():
    place = layout(16)
    b = place["boxes"]
    for (r, t), (x, y) in b.items():
        if r == 1:
            continue
        up, down = b[(r - 1, 2 * t - 1)], b[(r - 1, 2 * t)]
        assert x > up[0] + BOX_W  # the next column, right of the feeders
        assert abs((y + BOX_H / 2) - ((up[1] + down[1]) / 2 + BOX_H / 2)) <= 1
    for r in range(1, place["rounds"] + 1):
        ys = sorted(y for (rr, _), (_, y) in b.items() if rr == r)
        assert all(b2 - a >= BOX_H for a, b2 in zip(ys, ys[1:]))
    assert all(0 <= x and x + BOX_W <= place["width"] and 0 <= y and y + BOX_H <= place["height"]
               for x, y in b.values())


def test_byes_are_written_bye_and_the_top_seeds_get_them():
    # 6 entrants in a bracket of 8: seeds 1 and 2 have byes.
    matches = played_bracket(6, decided_rounds=1)
    root = parse(bracket_svg(8, matches, title="Knockout"))
    bye_boxes = [g for g in boxes(root) if "bk-bye" in g.get("class")]
    assert len(bye_boxes) == 2
    for g in bye_boxes:
        words = texts(g)
        assert "bye" in words
        assert any(w in ("Team 1", "Team 2") for w in words)
        assert g.get("aria-label").endswith(", bye")
    # Round 2 is paired once round 1 is decided; the final is empty ("–" on both lines).
    empty = [g for g in boxes(root) if "bk-empty" in g.get("class")]
    assert len(empty) == 1 and texts(empty[0]) == ["–", "–"]
    assert "Being played: Semi-finals." in root.find(f"{NS}desc").text


def test_the_match_for_third_place_is_drawn_under_the_final():
    root = parse(bracket_svg(8, played_bracket(8, third_place=True), title="Knockout"))
    all_boxes = boxes(root)
    assert len(all_boxes) == 8  # 7 + the match for third place
    heads = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == "bk-head"]
    assert heads[-1] == "Third place"
    rects = {id(g): g.find(f"{NS}rect") for g in all_boxes}
    final, third = rects[id(all_boxes[-2])], rects[id(all_boxes[-1])]
    assert final.get("x") == third.get("x") and float(third.get("y")) > float(final.get("y")) + BOX_H
    assert float(third.get("y")) + BOX_H <= float(root.get("height"))
    assert "Third place: Team 3." in root.find(f"{NS}desc").text  # seed 3 beats seed 4 in played_bracket


def test_an_empty_bracket_and_one_being_played():
    root = parse(bracket_svg(16, [], title="Knockout"))
    assert len(boxes(root)) == 15 and root.find(f"{NS}desc").text.endswith("Not drawn yet.")
    root = parse(bracket_svg(16, played_bracket(16, decided_rounds=2), title="Knockout"))
    assert "Being played: Semi-finals." in root.find(f"{NS}desc").text  # round 3 of 4 paired


def test_accessible_name_long_names_shortened_with_the_full_name_as_a_tooltip_and_markup_escaped():
    long = "Koninklijke Manillevereniging De Gouden Leeuw & Co <Roeselare>"
    matches = [BracketMatch(1, 1, Side(long, 1, 2, href="/t/x/teams/1/"), Side("B", 2, 0), winner="ns")]
    svg = bracket_svg(2, matches, title="Roeselare <knockout>", element_id="ko")
    root = parse(svg)  # well-formed: the names are escaped
    assert root.get("aria-labelledby") == "ko-title ko-desc"
    assert root.find(f"{NS}title").text == "Roeselare <knockout>"
    won = next(g for g in root.iter(f"{NS}g") if g.get("class") == "bk-won")
    assert won.find(f"{NS}title").text == long
    name = "".join(next(t for t in won.iter(f"{NS}text") if t.get("class") == "bk-name").itertext())
    assert name.endswith("…") and len(name) < len(long)
    assert won.find(f"{NS}a").get("href") == "/t/x/teams/1/"


def test_the_words_are_in_the_visitors_language():
    with translation.override("nl"):
        svg = bracket_svg(8, played_bracket(6, decided_rounds=1), title="Knock-out")
    root = parse(svg)
    heads = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == "bk-head"]
    assert heads == ["Kwartfinales", "Halve finales", "Finale"]
    assert "bye" not in " ".join(texts(root))


def test_refused_inputs():
    with pytest.raises(ValueError):
        bracket_svg(6, [], title="x")
    with pytest.raises(ValueError):
        bracket_svg(4, [BracketMatch(1, 3)], title="x")


def test_drawn_from_a_later_round_the_bracket_keeps_its_last_rounds_and_tells_the_whole():
    matches = played_bracket(64, decided_rounds=3)
    root = parse(bracket_svg(64, matches, title="Knockout", from_round=3))
    heads = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if t.get("class") == "bk-head"]
    assert heads == ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert len(boxes(root)) == 8 + 4 + 2 + 1
    # Round 3's first table holds round 3's first match (seeds 1 and 16), not round 1's.
    first = boxes(root)[0]
    assert "Team 1" in texts(first) and "Team 16" in texts(first)
    assert "Being played: Round of 16." not in root.find(f"{NS}desc").text  # round 4 is being played
    assert "Being played: Quarter-finals." in root.find(f"{NS}desc").text
    with pytest.raises(ValueError):
        bracket_svg(8, [], title="x", from_round=4)


def test_a_walkover_is_written_so_in_place_of_the_games_and_said_to_screen_readers():
    """A team withdrew mid-knockout: its opponent goes on by a walkover, which the box says ("w/o"), not 0-0."""
    final = BracketMatch(1, 1, Side("Team 1", seed=1, games=0), Side("Team 2", seed=2, games=0), winner="ew",
                         walkover=True)
    box = boxes(parse(bracket_svg(2, [final], title="Final")))[0]
    assert box.get("aria-label") == "Team 1 against Team 2: Team 2 goes on by a walkover"
    shown = texts(box)
    assert "w/o" in shown and "0" not in shown
    played = BracketMatch(1, 1, Side("Team 1", seed=1, games=0), Side("Team 2", seed=2, games=2), winner="ew")
    assert "w/o" not in texts(boxes(parse(bracket_svg(2, [played], title="Final")))[0])
    with translation.override("nl"):
        assert "ff" in texts(boxes(parse(bracket_svg(2, [final], title="Finale")))[0])


def test_the_print_pages_bracket_writes_a_long_name_whole_on_two_lines():
    """Paper has no tooltip: with ``wrap`` (the print page's) a name too long for its line is written whole on two
    lines of smaller type, broken between words; a short name stays one line at the drawing's size."""
    long = "Koninklijke Kaartersbond Sint-Martinus Roeselare-Beveren"
    matches = [BracketMatch(2, 1, Side("A", 1, 2), Side("B", 2, 1), winner="ns"),
               BracketMatch(2, 2, Side(long, 4, 2), Side("Ploeg 3", 3, 0), winner="ns", third_place=True)]
    root = parse(bracket_svg(4, matches, title="Knockout", wrap=True))
    names = {"".join(t.itertext()): t for t in root.iter(f"{NS}text") if "bk-name" in (t.get("class") or "")}
    wrapped = next(t for text, t in names.items() if text.startswith("Koninklijke"))
    assert [s.text for s in wrapped.iter(f"{NS}tspan")] == ["Koninklijke Kaartersbond", "Sint-Martinus Roeselare-Beveren"]
    assert 7 <= float(wrapped.get("font-size")) < 13
    assert "Ploeg 3" in names and names["Ploeg 3"].get("font-size") is None  # the drawing's 13 px
    # On screen (no ``wrap``) it is shortened on one line, its whole name in its tooltip, as before.
    root = parse(bracket_svg(4, matches, title="Knockout"))
    assert not list(root.iter(f"{NS}tspan"))
    assert any("".join(t.itertext()).endswith("…") for t in root.iter(f"{NS}text"))
