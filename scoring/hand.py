"""Score one hand: every check of rules.md §4, then multiplier, scores, bonus, penalties, game end."""

from __future__ import annotations

from typing import Mapping

from .checks import NO_TRUMP, check_seat, parse_deal, resolve_trump
from .play import run_play
from .types import (
    OTHER_SIDE, SEAT_SIDE, SIDES, Bonus, GameSettings, GameState, Hand, HandResult, RuleViolation, Violation, ahead,
    bad, shown,
)
from .variants import Rules, Variant, get_variant


class GameContext:
    """What a game fixes before its first hand: favourite suit, first dealer, albur winner."""

    __slots__ = ("favourite", "first_dealer", "albur")

    def __init__(self, favourite: str | None = None, first_dealer: str | None = None, albur: str | None = None):
        self.favourite = favourite
        self.first_dealer = first_dealer
        self.albur = albur


def game_context(rules: Rules, settings: GameSettings | None, favourite: str | None = None) -> GameContext:
    """Return the validated context of a game; raise RuleViolation for a favourite or albur not allowed."""
    v = rules.variant
    errors: list[Violation] = []
    first = settings.first_dealer if settings else None
    albur = settings.albur if settings else None
    if favourite is None and settings is not None:
        favourite = settings.favourite
    if favourite is not None:
        if not v.favourite:
            errors.append(Violation("call_not_allowed", "favourite", {"reason": "favourite", "variant": v.slug}))
        elif favourite not in v.suits:
            errors.append(bad("favourite", "suit", field="favourite", value=shown(favourite), variant=v.slug,
                              suits=list(v.suits)))
    if first is not None:
        check_seat(rules, first, "first_dealer", errors)
    if albur is not None:
        if not (v.albur_points and rules.albur):
            errors.append(Violation("call_not_allowed", "albur", {"reason": "albur", "variant": v.slug}))
        elif albur not in SIDES:
            errors.append(bad("albur", "side", field="albur", value=shown(albur)))
    if errors:
        raise RuleViolation(errors)
    return GameContext(favourite, first, albur)


def initial_state(rules: Rules, ctx: GameContext) -> GameState:
    """Return the state of a game before its first hand (albur points included)."""
    totals = {"ns": 0, "ew": 0}
    if ctx.albur:
        totals[ctx.albur] = rules.variant.albur_points
    return GameState(totals=totals, favourite=ctx.favourite, **rules.deals_state(0, None, False))


def score_hand(variant: "str | Variant | None", hand: Hand, state: GameState | None = None,
               options: Mapping | None = None, settings: GameSettings | None = None) -> HandResult:
    """Check a hand against every rule of rules.md §4 and compute its result.

    Raises RuleViolation listing every violation found. ``options`` default to
    ``settings.options``; the favourite is ``state.favourite`` or ``settings.favourite``.

    Decisions where rules.md leaves room:
    - a hand with ``play`` and no tricks/points takes them from the play, which must be
      legal (else its code, field "play.cards") and complete (else invalid_input);
      tricks/points sent with a play must match it (``play_mismatch``);
    - a thrown-in deal scores nothing, has no turn-up bonus, passes the deal on and
      keeps a pending Belgian tie double; it may omit the trump;
    - a penalised deal (tricks/points optional) uses up a pending tie double;
      signalling: the other side scores 20, multiplier 1; renege: the other side wins
      the game; renuncio: the other side scores (10 + its own gain) x favourite x
      Mariperez, and the offending side scores nothing, its turn-up bonus included;
    - Mariperez and the favourite suit multiply together;
    - a game of a fixed number of deals (option ``deals``, Classic Malilla's ``rounds``) ends on its
      deals alone: after the last, the side ahead wins, level is a draw, or with ``tiebreak_deals``
      that many more deals are played at a time until the totals differ. It has no target (no
      target ends it, no turn-up bonus is held back for one, a Catalan capote does not win it); a
      penalty that loses the game (Mexican renege) still does.
    """
    v = get_variant(variant if variant is not None else settings.variant)
    if options is None and settings is not None:
        options = settings.options
    rules = v.rules(options)
    ctx = game_context(rules, settings, state.favourite if state is not None else None)
    if state is None:
        state = initial_state(rules, ctx)
    return score_in_game(rules, ctx, hand, state)


def score_in_game(rules: Rules, ctx: GameContext, hand: Hand, state: GameState) -> HandResult:
    """Check and score ``hand`` as the next hand after ``state`` (used by score_hand and fold_game)."""
    v = rules.variant
    errors: list[Violation] = []
    trump_suit, tricks, points = _check(rules, ctx, hand, state, errors)
    if errors:
        raise RuleViolation(errors)
    result = _compute(rules, ctx, hand, state, trump_suit, tricks, points)
    if hand.score is not None and dict(hand.score) != result.score:
        raise RuleViolation(Violation("score_mismatch", "score", {
            "sheet_ns": hand.score.get("ns"), "sheet_ew": hand.score.get("ew"),
            "ns": result.score["ns"], "ew": result.score["ew"], "variant": v.slug}))
    return result


# --------------------------------------------------------------------------- checks


def _check(rules: Rules, ctx: GameContext, hand: Hand, state: GameState, errors: list[Violation]):
    v = rules.variant
    if state.winner is not None:
        errors.append(Violation("game_over", None, {"reason": "game_decided", "winner": state.winner}))
    elif rules.target is not None and _reached(state.totals, rules.target) is not None:
        # A state sent by hand (the stateless score) may omit the winner: its totals decide, as in a stored game.
        errors.append(Violation("game_over", "state.totals", {"reason": "target_reached", "ns": state.totals["ns"],
                                                               "ew": state.totals["ew"], "target": rules.target}))
    elif rules.deals_end(state.deals_played, state.totals) is not None:
        # Likewise its deals: a game of a fixed number of deals whose deals (and tie-break deals) are played.
        errors.append(Violation("game_over", "state.deals_played", {
            "reason": "deals_played", "deals_played": state.deals_played, "deals": rules.deals,
            "ns": state.totals["ns"], "ew": state.totals["ew"]}))
    _check_tie_state(rules, state, errors)
    _check_dealer(rules, ctx, hand, state, errors)
    trump_suit = resolve_trump(rules, hand.trump, hand.turned_card, errors, required=not hand.thrown_in)
    _check_calls(rules, hand, errors)
    if hand.penalty is not None:
        if hand.penalty.type not in v.penalties:
            errors.append(Violation("penalty_not_allowed", "penalty", {
                "penalty": shown(hand.penalty.type), "variant": v.slug, "penalties": list(v.penalties)}))
        if hand.penalty.side not in SIDES:
            errors.append(bad("penalty", "side", field="penalty.side", value=shown(hand.penalty.side)))
    tricks, points = hand.tricks, hand.points
    if hand.thrown_in:
        for name in ("tricks", "points", "penalty", "play"):
            if getattr(hand, name) is not None:
                errors.append(bad(name, "thrown_in_carries", field=name))
        return trump_suit, None, None
    if hand.play is not None:
        played = _check_play(rules, hand, trump_suit, errors)
        if played is not None:
            for name, given, derived in (("tricks", tricks, played[0]), ("points", points, played[1])):
                if given is not None and dict(given) != derived:
                    errors.append(Violation("play_mismatch", name, {
                        "field": name, "given_ns": given.get("ns"), "given_ew": given.get("ew"),
                        "ns": derived["ns"], "ew": derived["ew"]}))
            tricks, points = played
        elif tricks is None:
            return trump_suit, None, None
    if (tricks is None) != (points is None):
        missing = "points" if points is None else "tricks"
        errors.append(bad(missing, "tricks_and_points"))
        return trump_suit, None, None
    if tricks is None:
        if hand.penalty is None:
            errors.append(bad("tricks", "counts_required"))
        return trump_suit, None, None
    _check_counts(rules, tricks, points, errors)
    return trump_suit, tricks, points


def _check_tie_state(rules: Rules, state: GameState, errors: list[Violation]):
    """Refuse a pending tie double the rules cannot produce (only Belgian Manille's 30-30 tie doubles)."""
    pending = state.pending_multiplier
    if pending <= 1:
        return
    field_name = "state.tie_multiplier" if state.tie_multiplier > 1 else "state.tie_pending"
    v = rules.variant
    if rules.tie_doubling == "off":
        if "tie_doubling" not in v.options:
            errors.append(bad(field_name, "no_tie_double", variant=v.slug, multiplier=pending))
        else:
            errors.append(bad(field_name, "tie_doubling_off", variant=v.slug, multiplier=pending))
    elif rules.tie_doubling == "next" and pending != 2:
        errors.append(bad(field_name, "tie_doubling_next", multiplier=pending))


def _check_dealer(rules: Rules, ctx: GameContext, hand: Hand, state: GameState, errors: list[Violation]):
    dealer = hand.dealer
    if not check_seat(rules, dealer, "dealer", errors):
        return
    previous = state.previous_dealer
    if previous is not None:
        if not check_seat(rules, previous, "state.previous_dealer", errors):
            return
        expected = rules.next_seat[previous]
        if dealer != expected:
            errors.append(Violation("dealer_out_of_turn", "dealer", {
                "reason": "next_seat", "previous": previous, "expected": expected, "dealer": dealer,
                "direction": rules.direction}))
    elif state.deals_played == 0:
        if ctx.first_dealer is not None and dealer != ctx.first_dealer:
            errors.append(Violation("dealer_out_of_turn", "dealer", {
                "reason": "first_dealer", "expected": ctx.first_dealer, "dealer": dealer}))
        elif ctx.albur is not None and SEAT_SIDE[dealer] == ctx.albur:
            errors.append(Violation("dealer_out_of_turn", "dealer", {
                "reason": "albur", "side": ctx.albur, "dealer": dealer}))


def _check_calls(rules: Rules, hand: Hand, errors: list[Violation]):
    v = rules.variant
    if isinstance(hand.doublings, bool) or not isinstance(hand.doublings, int) or hand.doublings < 0:
        errors.append(bad("doublings", "minimum", field="doublings", minimum=0, value=shown(hand.doublings)))
        return
    if hand.blind:
        if v.blind_multiplier <= 1 or not rules.blind_allowed:
            errors.append(Violation("call_not_allowed", "blind", {"reason": "blind", "variant": v.slug}))
        elif hand.trump != NO_TRUMP:
            errors.append(Violation("call_not_allowed", "blind", {"reason": "blind_trump", "trump": shown(hand.trump)}))
    if hand.doublings and not v.doublings:
        errors.append(Violation("call_not_allowed", "doublings", {
            "reason": "doublings", "variant": v.slug, "doublings": hand.doublings}))
    cap = rules.max_multiplier
    if cap is not None and not any(e.field in ("blind", "doublings") for e in errors):
        calls = _calls_multiplier(rules, hand)
        if calls > cap:
            name = "doublings" if hand.doublings else ("blind" if hand.blind else "trump")
            errors.append(Violation("call_not_allowed", name, {
                "reason": "max_multiplier", "multiplier": calls, "doublings": hand.doublings, "maximum": cap}))


def _check_counts(rules: Rules, tricks: Mapping[str, int], points: Mapping[str, int], errors: list[Violation]):
    v = rules.variant
    deck = rules.deck
    t_ns, t_ew = tricks["ns"], tricks["ew"]
    p_ns, p_ew = points["ns"], points["ew"]
    bad = False
    for name, values in (("tricks", (t_ns, t_ew)), ("points", (p_ns, p_ew))):
        for side, value in zip(SIDES, values):
            if value < 0:
                errors.append(bad(f"{name}.{side}", "minimum", field=f"{name}.{side}", minimum=0, value=shown(value)))
                bad = True
    if bad:
        return
    if t_ns + t_ew != v.tricks_per_deal:
        errors.append(Violation("tricks_total", "tricks",
                                {"total": v.tricks_per_deal, "ns": t_ns, "ew": t_ew, "sum": t_ns + t_ew}))
    if p_ns + p_ew != v.hand_total:
        errors.append(Violation("points_total", "points",
                                {"total": v.hand_total, "ns": p_ns, "ew": p_ew, "sum": p_ns + p_ew}))
    per_trick = len(rules.order)
    all_card_points = deck.best_points[deck.size]
    tp = v.trick_points
    for side, k, p, other_k in (("ns", t_ns, p_ns, t_ew), ("ew", t_ew, p_ew, t_ns)):
        card = p - tp * k
        if k == 0:
            if p != 0:
                errors.append(Violation("points_impossible", f"points.{side}",
                                        {"reason": "no_tricks", "side": side, "points": p}))
            continue
        low = all_card_points - deck.max_card_points(per_trick * other_k)
        high = deck.max_card_points(per_trick * k)
        if card < 0 or card > high or card < low:
            errors.append(Violation("points_impossible", f"points.{side}", {
                "reason": "card_points", "side": side, "card_points": card, "points": p, "trick_points": tp * k,
                "tricks": k, "other_tricks": other_k, "low": max(low, 0), "high": high}))


def _check_play(rules: Rules, hand: Hand, trump_suit: int | None, errors: list[Violation]):
    start = len(errors)
    masks = parse_deal(rules, hand.play.hands, hand.dealer, hand.turned_card, errors, prefix="play.")
    if masks is None or len(errors) > start or hand.dealer not in rules.position:
        return None
    if any(e.field in ("trump", "turned_card") for e in errors):
        return None
    try:
        played = run_play(rules, hand.dealer, trump_suit, masks, hand.play.cards, field_name="play.cards")
    except RuleViolation as exc:
        errors.extend(exc.violations)
        return None
    if not played.legal:
        w = played.violation
        errors.append(Violation(w["code"], "play.cards", {
            "trick": w["trick"], "seat": w["seat"], "card": w["card"], "legal_cards": list(w["legal_cards"]),
            **({"played_by": w["played_by"]} if w.get("played_by") else {})}))
        return None
    if not played.complete:
        n = sum(len(t["cards"]) for t in played.tricks)
        errors.append(bad("play.cards", "play_incomplete", played=n, cards=rules.deck.size))
        return None
    return played.tricks_won, played.points


# --------------------------------------------------------------------------- scoring


def _calls_multiplier(rules: Rules, hand: Hand) -> int:
    v = rules.variant
    calls = 1
    if hand.trump == NO_TRUMP and v.no_trump:
        calls = v.blind_multiplier if hand.blind else v.no_trump_multiplier
    return calls << hand.doublings if v.doublings else calls


def _hand_gain(v: Variant, tricks, points) -> tuple[str | None, int, str | None]:
    """Return (winning side, raw score before multipliers, side with all tricks)."""
    all_side = None
    if tricks is not None:
        for side in SIDES:
            if tricks[side] == v.tricks_per_deal:
                all_side = side
    p_ns, p_ew = points["ns"], points["ew"]
    if v.score_rule == "difference":
        if p_ns == p_ew:
            return None, 0, all_side
        winner = "ns" if p_ns > p_ew else "ew"
        return winner, abs(p_ns - p_ew), all_side
    winner = "ns" if p_ns > v.base else "ew" if p_ew > v.base else None
    if winner is None:
        return None, 0, all_side
    if all_side == winner and v.all_tricks == "hand_total":
        return winner, v.hand_total, all_side
    return winner, points[winner] - v.base, all_side


def _compute(rules: Rules, ctx: GameContext, hand: Hand, state: GameState, trump_suit, tricks, points) -> HandResult:
    v = rules.variant
    dealer = hand.dealer
    dealer_side = SEAT_SIDE[dealer]
    totals = {"ns": state.totals["ns"], "ew": state.totals["ew"]}
    pending = state.pending_multiplier
    new_pending = pending
    score = {"ns": 0, "ew": 0}
    labels: list[str] = []
    multiplier = 1
    all_side = None
    winner = None
    game_winner = None
    bonus = None
    target = rules.target
    deals_after = state.deals_played + 1
    # Favourite suit and Mariperez double everything of the hand, penalties and turn-up included.
    # (ctx.favourite is the game's favourite: score_hand reads it from the state first.)
    extra = rules.round_multiplier(state.deals_played)
    if ctx.favourite is not None and trump_suit is not None and v.suits[trump_suit] == ctx.favourite:
        extra *= 2

    if hand.thrown_in:
        labels.append("thrown_in")
    else:
        penalty = hand.penalty
        if penalty is not None:
            rule = v.penalties[penalty.type]
            other = OTHER_SIDE[penalty.side]
            labels += ["penalty", penalty.type]
            new_pending = 1  # a penalised deal is still the played deal that used up a tie double
            gain = 0  # what the other side's own play earned, if tricks and points were given
            if tricks is not None:
                w, raw, all_side = _hand_gain(v, tricks, points)
                gain = raw if w == other else 0
            if rule.kind == "award":
                score[other] = rule.points
            elif rule.kind == "lose_game":
                game_winner = other
            else:  # award_plus_gain
                multiplier = extra
                score[other] = (rule.points + gain) * extra
        else:
            winner, raw, all_side = _hand_gain(v, tricks, points)
            multiplier = _calls_multiplier(rules, hand) * pending * extra
            if all_side is not None and v.all_tricks == "double":
                multiplier *= 2
            if rules.max_multiplier is not None:
                multiplier = min(multiplier, rules.max_multiplier)
            if winner is None:
                labels.append("tie")
            else:
                score[winner] = raw * multiplier
            new_pending = 1
            if winner is None and rules.tie_doubling != "off":
                new_pending = pending * 2 if rules.tie_doubling == "stack" else 2
        if all_side is not None:
            labels.append(v.all_tricks_label)

    # The turn-up bonus: at once, unless it would reach the target; then it waits for the hand.
    held = False
    bonus_points = 0
    if v.turn_up_bonus and hand.turned_card is not None and not hand.thrown_in:
        bonus_points = rules.deck.points[rules.deck.index[hand.turned_card]] * extra
        if bonus_points:
            held = (v.turn_up_bonus != "immediate" and target is not None
                    and totals[dealer_side] + bonus_points >= target)
            applied = not held
            if (applied and hand.penalty is not None and hand.penalty.side == dealer_side
                    and v.penalties[hand.penalty.type].kind == "award_plus_gain"):
                applied = False  # the offending side scores nothing that hand, its turn-up included
            if applied:
                totals[dealer_side] += bonus_points
            bonus = Bonus(dealer_side, bonus_points, held, applied)

    totals["ns"] += score["ns"]
    totals["ew"] += score["ew"]

    if (game_winner is None and all_side is not None and v.all_tricks == "wins_game" and hand.penalty is None
            and rules.deals is None):
        game_winner = all_side
    if game_winner is None and target is not None:
        game_winner = _reached(totals, target)
    if held:
        if v.turn_up_bonus == "hold_back":
            # Spain, Mexico: added only if neither side reached the target with the hand.
            add = game_winner is None
        else:
            # Catalonia ("hold_back_base", 003): added when the dealer's side made at least 36 in the hand,
            # "finishing the set", even when that same hand already won it; otherwise lost. (With 36 or
            # more, only the dealer's side can have scored, so no other side can have won the set.)
            add = (points is not None and points[dealer_side] >= v.base
                   and game_winner in (None, dealer_side))
        if add:
            totals[dealer_side] += bonus_points
            bonus = Bonus(dealer_side, bonus_points, True, True)
            if game_winner is None:
                game_winner = _reached(totals, target)
    ended_on_deals = False
    if game_winner is None:
        game_winner = rules.deals_end(deals_after, totals)
        ended_on_deals = game_winner is not None
    if v.zapato and game_winner in SIDES and hand.penalty is None and totals[OTHER_SIDE[game_winner]] == 0:
        labels.append("zapato")

    next_dealer = rules.next_seat[dealer]
    if game_winner is not None:
        new_pending = 1
        next_multiplier = 1
    else:
        next_multiplier = new_pending * rules.round_multiplier(deals_after)
    new_state = GameState(
        totals=dict(totals), tie_pending=new_pending > 1, previous_dealer=dealer, favourite=state.favourite,
        deals_played=deals_after, winner=game_winner, tie_multiplier=new_pending,
        **rules.deals_state(deals_after, game_winner, ended_on_deals),
    )
    return HandResult(
        tricks=dict(tricks) if tricks is not None else None,
        points=dict(points) if points is not None else None,
        multiplier=multiplier, all_tricks=all_side is not None, score=score, bonus=bonus, totals=totals,
        game_winner=game_winner, tie_pending=new_pending > 1, next_dealer=next_dealer,
        next_multiplier=next_multiplier, labels=tuple(labels), state=new_state,
    )


def _reached(totals: dict[str, int], target: int) -> str | None:
    ns, ew = totals["ns"] >= target, totals["ew"] >= target
    if ns and ew:
        return ahead(totals)
    return "ns" if ns else "ew" if ew else None
