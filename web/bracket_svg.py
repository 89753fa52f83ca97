"""A knockout bracket drawn as SVG on the server, from plain data (no database, no request).

``bracket_svg(size, matches)`` draws every round of a bracket of ``size`` slots (a power of two): round r has
size / 2^r tables, table t of round r + 1 is fed by tables 2t - 1 and 2t of round r (the knockout's own rule,
``tournaments.pairing.knockout``), so a match is drawn midway between its two feeders and joined to them by
lines. A match not paired yet is an empty box; the match for third place sits under the final.

Readable without colour: the winner's line is bold and marked "✓", a bye is written "bye", the games won are
figures. Accessible: ``<title>`` and ``<desc>`` (the champion, the final's result), each side's full name as
its tooltip when its name had to be shortened. The drawing keeps its size in pixels (13 px text, legible on a
phone, where the page scrolls it sideways); in print it is scaled to the page's width by its ``viewBox``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

__all__ = ["Side", "BracketMatch", "bracket_svg", "round_names", "layout"]

# The drawing's measures, in CSS pixels.
BOX_W = 200  # a match's box
LINE_H = 22  # one side's line in it
BOX_H = 2 * LINE_H
SLOT_H = 54  # the height a round-1 match takes, gap included
GAP_W = 24  # between two rounds' boxes, where the connectors run
HEAD_H = 28  # the rounds' names
PAD = 4
FONT = 13
CHAR_W = 7.4  # an average character's width at 13 px, to shorten names that would overflow
BOLD_W = 8.3  # the same in bold (the winner's name)
WRAP_FONT = 10.5  # a name on two lines (``wrap``: the print page's, where no tooltip says it whole): at most
MIN_FONT = 7  # and at least (the print page scales the drawing to the paper's width, a bracket of 8 by 1.07)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a match: its name, seed (None: unseeded), games won (None: no result yet), link."""

    name: str
    seed: int | None = None
    games: int | None = None
    href: str = ""


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the bracket: ``round`` and ``table`` (as the knockout numbers them); ``ns``/``ew`` None when
    not known yet; ``bye`` when ``ns`` goes on without playing; ``winner`` "ns", "ew" or "" (undecided);
    ``third_place`` for the match for third place (drawn under the final)."""

    round: int
    table: int
    ns: Side | None = None
    ew: Side | None = None
    winner: str = ""
    bye: bool = False
    third_place: bool = False
    href: str = ""
    #: Won by a walkover (the opponent withdrew): written "w/o" in place of the games, said so to screen readers.
    walkover: bool = False


def round_names(rounds: int) -> list[str]:
    """The rounds' names, first to last: "Round 1"... then "Round of 16", quarter-finals, semi-finals, final."""
    names = []
    for r in range(1, rounds + 1):
        left = rounds - r  # rounds after this one
        if left == 0:
            names.append(_("Final"))
        elif left == 1:
            names.append(_("Semi-finals"))
        elif left == 2:
            names.append(_("Quarter-finals"))
        elif left == 3:
            names.append(_("Round of 16"))
        else:
            names.append(_("Round %(n)s") % {"n": r})
    return names


def layout(size: int) -> dict:
    """Where each match's box goes: {(round, table): (x, y)} of its top-left corner, and the drawing's size."""
    if size < 2 or size & (size - 1):
        raise ValueError("the bracket size must be a power of two")
    rounds = size.bit_length() - 1
    boxes = {}
    for r in range(1, rounds + 1):
        span = SLOT_H * 2 ** (r - 1)  # the height each match of round r stands for
        for t in range(1, size // 2 ** r + 1):
            centre = HEAD_H + (t - 0.5) * span
            boxes[(r, t)] = (PAD + (r - 1) * (BOX_W + GAP_W), round(centre - BOX_H / 2))
    width = 2 * PAD + rounds * BOX_W + (rounds - 1) * GAP_W
    height = HEAD_H + (size // 2) * SLOT_H
    return {"rounds": rounds, "boxes": boxes, "width": width, "height": max(height, HEAD_H + 3 * SLOT_H)}


def _short(text: str, room: float, width: float = CHAR_W) -> str:
    most = max(int(room // width), 3)
    return text if len(text) <= most else text[: most - 1].rstrip() + "…"


def _fit(text: str, room: float, width: float) -> tuple[float, list[tuple[str, bool]]]:
    """A name too long for one line of its side (``room`` px, ``width`` px a character at ``FONT``), written whole:
    on two lines broken between words (as even as they go), in the type that fits them, at most ``WRAP_FONT``
    and at least ``MIN_FONT``; a line still too long at that is squeezed to the room (``textLength``) up to a
    quarter, and only past that shortened with "…". Its font size and its lines, each with whether to squeeze it."""
    words = text.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))] or [(text, "")]
    lines = [line for line in min(splits, key=lambda pair: max(len(pair[0]), len(pair[1]))) if line]
    longest = max(len(line) for line in lines) * width  # at FONT
    font = round(max(MIN_FONT, min(WRAP_FONT, FONT * room / longest)), 1)
    scale = font / FONT
    out = []
    for line in lines:
        wide = len(line) * width * scale
        if wide > room * 1.25:
            out.append((_short(line, room * 1.25, width * scale), True))
        else:
            out.append((line, wide > room))
    return font, out


def _side_lines(x: int, y: int, side: Side | None, *, won: bool, lost: bool, bye_word: str, empty: bool,
                games: str | None = None, wrap: bool = False) -> list[str]:
    """One side's line in a match's box: seed, name (shortened, its full name as a tooltip; ``wrap``: on two lines
    of smaller type when it does not fit on one, shortened only past those), games (``games``: the text in their
    place, "" for none), "✓"."""
    out = []
    base = y + LINE_H / 2 + FONT * 0.36
    if side is None:
        text = bye_word if not empty else "–"
        out.append(f'<text x="{x + 8}" y="{base:.1f}" class="bk-none">{escape(text)}</text>')
        return out
    seed_room = 22 if side.seed is not None else 0
    games = (str(side.games) if side.games is not None else "") if games is None else games
    games_room = 26 if games else 0
    mark_room = 18 if won else 0
    room, char_w = BOX_W - 12 - seed_room - games_room - mark_room, BOLD_W if won else CHAR_W
    name = _short(side.name, room, char_w)
    font, lines = _fit(side.name, room, char_w) if wrap and name != side.name else (FONT, [])
    cls = "bk-won" if won else "bk-lost" if lost else "bk-side"
    out.append(f'<g class="{cls}">')
    if (" ".join(line for line, _squeezed in lines) if lines else name) != side.name:
        out.append(f"<title>{escape(side.name)}</title>")
    if side.seed is not None:
        out.append(f'<text x="{x + 6}" y="{base:.1f}" class="bk-seed">{side.seed}</text>')
    name_x = x + 6 + seed_room
    if lines:  # in the side's line: one line on its middle, two with the first's baseline high, the second's low
        middle = y + LINE_H / 2 + font * 0.36
        baselines = [middle] if len(lines) == 1 else [y + LINE_H / 2 - 1.5, y + LINE_H - 2.5]
        spans = "".join(
            f'<tspan x="{name_x}" y="{top:.1f}"'
            + (f' textLength="{room:.0f}" lengthAdjust="spacingAndGlyphs"' if squeezed else "")
            + f">{escape(line)}</tspan>" for (line, squeezed), top in zip(lines, baselines))
        label = (f'<text x="{name_x}" y="{baselines[0]:.1f}" class="bk-name bk-wrapped" font-size="{font:g}">'
                 f"{spans}</text>")
    else:
        label = f'<text x="{name_x}" y="{base:.1f}" class="bk-name">{escape(name)}</text>'
    if side.href:
        label = f'<a href="{escape(side.href)}">{label}</a>'
    out.append(label)
    if won:
        out.append(f'<text x="{x + BOX_W - 6 - games_room}" y="{base:.1f}" text-anchor="end" class="bk-mark">✓</text>')
    if games:
        out.append(f'<text x="{x + BOX_W - 6}" y="{base:.1f}" text-anchor="end" class="bk-games">{escape(games)}</text>')
    out.append("</g>")
    return out


def _match_box(x: int, y: int, m: BracketMatch | None, *, bye_word: str, wrap: bool = False) -> list[str]:
    empty = m is None or (m.ns is None and m.ew is None)
    label = ""
    if m is not None and m.ns is not None:
        if m.bye:
            label = _("%(name)s, bye") % {"name": m.ns.name}
        elif m.ew is not None and m.walkover and m.winner in ("ns", "ew"):
            label = _("%(ns)s against %(ew)s: %(winner)s goes on by a walkover") % {
                "ns": m.ns.name, "ew": m.ew.name, "winner": (m.ns if m.winner == "ns" else m.ew).name}
        elif m.ew is not None:
            label = _("%(ns)s against %(ew)s") % {"ns": m.ns.name, "ew": m.ew.name}
    cls = "bk-match bk-empty" if empty else "bk-match bk-bye" if m is not None and m.bye else "bk-match"
    out = [f'<g class="{cls}"' + (f' aria-label="{escape(label)}"' if label else "") + ">"]
    out.append(f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" rx="4" class="bk-box"/>')
    out.append(f'<line x1="{x}" y1="{y + LINE_H}" x2="{x + BOX_W}" y2="{y + LINE_H}" class="bk-rule"/>')
    winner = m.winner if m is not None else ""
    if m is not None and m.bye and m.ns is not None:
        winner = "ns"
    for i, side_name in enumerate(("ns", "ew")):
        side = getattr(m, side_name) if m is not None else None
        walkover = m is not None and m.walkover and winner in ("ns", "ew")
        out += _side_lines(x, y + i * LINE_H, side, won=winner == side_name,
                           lost=bool(winner) and winner != side_name, bye_word=bye_word,
                           empty=empty or not (m is not None and m.bye and side_name == "ew"),
                           games=(_("w/o") if winner == side_name else "") if walkover else None, wrap=wrap)
    if m is not None and m.href and not empty:
        out.insert(1, f'<a href="{escape(m.href)}" class="bk-link" aria-hidden="true" tabindex="-1">'
                      f'<rect x="{x}" y="{y}" width="{BOX_W}" height="{BOX_H}" fill="transparent"/></a>')
    out.append("</g>")
    return out


def bracket_svg(size: int, matches: Sequence[BracketMatch], *, title: str, names: Sequence[str] | None = None,
                element_id: str = "bracket", from_round: int = 1, wrap: bool = False) -> str:
    """The bracket of ``size`` slots as an ``<svg>`` element (markup, to be marked safe by the caller).

    ``matches``: the matches known so far (any round; a match absent is drawn empty); ``names``: the
    rounds' headings (default ``round_names``); ``title``: the drawing's accessible name; ``from_round``: the
    first round drawn (the wall draws a large bracket from its last rounds, at a size a hall can read; the
    description still tells the whole); ``wrap``: a name too long for its line written whole on two lines of
    smaller type (``_fit``; the print page's: paper has no tooltip), not shortened on one. Refused (``ValueError``): a size that is not a power of two, a match
    outside the bracket.
    """
    all_rounds = layout(size)["rounds"]
    if not 1 <= from_round <= all_rounds:
        raise ValueError(f"a bracket of {size} has no round {from_round}")
    names = list(names) if names is not None else round_names(all_rounds)
    shift = from_round - 1
    whole = {}
    third = None
    for m in matches:
        if m.third_place:
            third = m
            continue
        if not (1 <= m.round <= all_rounds and 1 <= m.table <= size >> m.round):
            raise ValueError(f"round {m.round} table {m.table} is not in a bracket of {size}")
        whole[(m.round, m.table)] = m
    desc = _desc(all_rounds, whole, third, len(matches))
    place = layout(size >> shift)
    rounds, boxes = place["rounds"], place["boxes"]
    names = names[shift:]
    by_place = {(r - shift, t): m for (r, t), m in whole.items() if r > shift}
    width, height = place["width"], place["height"]
    final_x, final_y = boxes[(rounds, 1)]
    third_y = final_y + BOX_H + 40
    if third is not None:
        height = max(height, third_y + BOX_H + PAD)
    bye_word = _("bye")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" id="{escape(element_id)}" class="bracket" '
           f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="group" '
           f'aria-labelledby="{escape(element_id)}-title {escape(element_id)}-desc" font-size="{FONT}">',
           f'<title id="{escape(element_id)}-title">{escape(title)}</title>',
           f'<desc id="{escape(element_id)}-desc">{escape(desc)}</desc>']
    for r in range(1, rounds + 1):
        x = PAD + (r - 1) * (BOX_W + GAP_W)
        out.append(f'<text x="{x + BOX_W / 2}" y="{HEAD_H - 10}" text-anchor="middle" class="bk-head">'
                   f"{escape(names[r - 1])}</text>")
    # The connectors first, under the boxes: each match's right edge to its next match's left edge.
    lines = []
    for (r, t), (x, y) in boxes.items():
        if r == rounds:
            continue
        nx, ny = boxes[(r + 1, (t + 1) // 2)]
        y0 = y + BOX_H / 2
        y1 = ny + (LINE_H / 2 if t % 2 else LINE_H * 1.5)
        mid = x + BOX_W + GAP_W / 2
        lines.append(f"M{x + BOX_W} {y0:.1f}H{mid:.1f}V{y1:.1f}H{nx}")
    if lines:
        out.append(f'<path d="{" ".join(lines)}" class="bk-wire" fill="none"/>')
    for (r, t), (x, y) in boxes.items():
        out += _match_box(x, y, by_place.get((r, t)), bye_word=bye_word, wrap=wrap)
    if third is not None:
        heading = _("Third place")  # outside the f-string, where the catalogue's extraction finds it
        out.append(f'<text x="{final_x + BOX_W / 2}" y="{third_y - 8}" text-anchor="middle" class="bk-head">'
                   f"{escape(heading)}</text>")
        out += _match_box(final_x, third_y, third, bye_word=bye_word, wrap=wrap)
    out.append("</svg>")
    return "\n".join(out)


def _winner_name(m: BracketMatch | None) -> str:
    if m is None:
        return ""
    if m.bye and m.ns is not None:
        return m.ns.name
    side = {"ns": m.ns, "ew": m.ew}.get(m.winner)
    return side.name if side is not None else ""


def _desc(rounds: int, by_place: dict, third: BracketMatch | None, known: int) -> str:
    """The bracket in one sentence or two: its rounds, then the champion and the final, or how far it is."""
    parts = [ngettext("A knockout of %(n)s round.", "A knockout of %(n)s rounds.", rounds) % {"n": rounds}]
    final = by_place.get((rounds, 1))
    champion = _winner_name(final)
    if champion:
        parts.append(_("Winner: %(name)s.") % {"name": champion})
        if final.ew is not None and final.ns is not None and final.ns.games is not None:
            parts.append(_("Final: %(ns)s %(a)s, %(ew)s %(b)s.") % {
                "ns": final.ns.name, "a": final.ns.games, "ew": final.ew.name, "b": final.ew.games or 0})
    elif not known:
        parts.append(_("Not drawn yet."))
    else:
        played = [r for (r, _t), m in by_place.items() if m.ns is not None]
        parts.append(_("Being played: %(round)s.") % {"round": round_names(rounds)[max(played) - 1]}
                     if played else _("Not drawn yet."))
    third_winner = _winner_name(third)
    if third_winner:
        parts.append(_("Third place: %(name)s.") % {"name": third_winner})
    return " ".join(parts)
