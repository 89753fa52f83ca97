"""The refusals in words: a code and its params become a sentence in the active language.

The rules engine (``scoring.Violation``) and the services (``tournaments.services.errors``) refuse with a
stable code, the field concerned and plain params (numbers, seats, cards, sides, names); this module is the
one place where they become words, for the API's ``detail``, the workspace and the admin alike. A code with
several sentences picks one by ``params["reason"]``. docs/refusals.md is the catalogue of every code, made
from ``CATALOGUE`` and ``SENTENCES`` (``catalogue_markdown``) and checked by tests/tournaments/test_refusals.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import vocabulary
from tournaments.refusals_stages import STAGE_SENTENCES
from tournaments.refusals_confirmation import CONFIRMATION_CATALOGUE, CONFIRMATION_SENTENCES
from tournaments.desk_refusals import DESK_CATALOGUE, DESK_SENTENCES

#: Each code (or ``(code, reason)``) and its sentence; ``%(name)s`` are the params (and ``ns_name``,
#: ``ew_name``, ``team``: the sides' team names).
SENTENCES = {
    # -- the rules engine: malformed input (invalid_input, by reason) -----------------------------------
    "invalid_input": _("This value is not valid."),
    ("invalid_input", "sides"): _("%(field)s must give the two sides, ns and ew."),
    ("invalid_input", "integer"): _("%(field)s must be a whole number, not %(value)s."),
    ("invalid_input", "minimum"): _("%(field)s must be a whole number of at least %(minimum)s, not %(value)s."),
    ("invalid_input", "card_list"): _("%(field)s must be a list of cards."),
    ("invalid_input", "object"): _("%(field)s must be a JSON object."),
    ("invalid_input", "string"): _("%(field)s must be a text, not %(value)s."),
    ("invalid_input", "boolean"): _("%(field)s must be true or false, not %(value)s."),
    ("invalid_input", "seat"): _("%(field)s must be one of the seats %(seats)s, not %(value)s."),
    ("invalid_input", "suit"): _("%(field)s must be one of the suits %(suits)s, not %(value)s."),
    ("invalid_input", "side"): _("%(field)s must be ns or ew, not %(value)s."),
    ("invalid_input", "penalty_shape"): _("A penalty gives its type and the offending side (ns or ew)."),
    ("invalid_input", "play_shape"): _("A card play gives the cards of each seat and the cards played."),
    ("invalid_input", "thrown_in_carries"): _("A thrown-in deal has no %(field)s."),
    ("invalid_input", "tricks_and_points"): _("Give the tricks and the points together, or neither."),
    ("invalid_input", "counts_required"): _("A played hand needs its tricks and points, or its full card play."),
    ("invalid_input", "no_tie_double"): _("This variant has no tie double: a pending tie (x%(multiplier)s) "
                                          "cannot arise."),
    ("invalid_input", "tie_doubling_off"): _("This tournament plays without the tie double: a pending tie "
                                             "(x%(multiplier)s) cannot arise."),
    ("invalid_input", "tie_doubling_next"): _("With the tie double on the next hand only, a pending tie doubles "
                                              "(x2), not x%(multiplier)s."),
    ("invalid_input", "play_incomplete"): _("The card play stops after %(played)s of the %(cards)s cards: a hand "
                                            "needs every card."),
    ("invalid_input", "game_unfinished"): _("Game %(game)s is unfinished, yet game %(next)s follows it."),
    ("invalid_input", "game_winner"): _("Game %(game)s: the winner must be ns, ew, draw or null, not %(value)s."),
    ("invalid_input", "unknown_variant"): _("Unknown variant %(value)s; the variants are %(known)s."),
    ("invalid_input", "json"): _("The request's body must be JSON."),
    ("invalid_input", "json_object"): _("The request's body must be a JSON object."),
    ("invalid_input", "key"): _("The key must be 1 to 100 printable characters."),
    ("invalid_input", "whole_number"): _("%(field)s must be a whole number."),
    ("invalid_input", "rank_and_suit"): _("Choose the rank and the suit of the turned-up card."),
    # -- the rules engine: house options ------------------------------------------------------------------
    "invalid_option": _("The tournament's house options are not valid."),
    ("invalid_option", "object"): _("The house options must be a JSON object."),
    ("invalid_option", "unknown"): _("This variant has no option %(option)s; its options are %(known)s."),
    ("invalid_option", "null"): _("The option %(option)s needs a value."),
    ("invalid_option", "boolean"): _("The option %(option)s must be true or false, not %(value)s."),
    ("invalid_option", "integer"): _("The option %(option)s must be a whole number, not %(value)s."),
    ("invalid_option", "minimum"): _("The option %(option)s must be at least %(minimum)s, not %(value)s."),
    ("invalid_option", "maximum"): _("The option %(option)s must be at most %(maximum)s, not %(value)s."),
    ("invalid_option", "choice"): _("The option %(option)s must be one of %(choices)s, not %(value)s."),
    "options_inconsistent": _("These house options contradict each other."),
    ("options_inconsistent", "deals_rounds"): _("%(rounds)s rounds are %(expected)s deals, not %(deals)s: give the "
                                                "rounds or the deals, or both alike."),
    ("options_inconsistent", "tiebreak_without_deals"): _("Tie-break deals (%(tiebreak_deals)s) need a game of a "
                                                          "fixed number of deals: set the deals too."),
    # -- the rules engine: the checks of rules.md section 4 ----------------------------------------------
    "unknown_card": _("%(card)s is not a card of this variant's deck."),
    "trump_invalid": _("Choose a trump this variant allows."),
    ("trump_invalid", "not_a_suit"): _("%(trump)s is not a suit of this variant (%(suits)s)."),
    ("trump_invalid", "turned_card_required"): _("This variant turns up the dealer's last card: give the "
                                                 "turned-up card."),
    ("trump_invalid", "not_turned_suit"): _("The trump %(trump)s is not the suit of the turned-up card %(card)s."),
    ("trump_invalid", "turns_no_card"): _("This variant turns up no card: give the trump instead."),
    ("trump_invalid", "trump_required"): _("This variant needs a trump suit."),
    ("trump_invalid", "no_no_trump"): _("This variant has no no-trump hands."),
    "deck_invalid": _("The cards dealt are not a full deck."),
    ("deck_invalid", "seats"): _("The deal must give the cards of each seat: %(seats)s."),
    ("deck_invalid", "count"): _("%(seat)s holds %(count)s cards; each seat holds %(per_seat)s."),
    ("deck_invalid", "twice"): _("%(card)s is dealt twice."),
    ("deck_invalid", "missing"): _("%(count)s cards are not dealt: %(cards)s."),
    ("deck_invalid", "turned_not_dealt"): _("The turned-up card %(card)s is not in the dealer's hand (%(dealer)s)."),
    "game_over": _("This game or match is already decided."),
    ("game_over", "game_decided"): _("This game is already decided: start the next game of the match."),
    ("game_over", "target_reached"): _("The game is already decided: %(ns_name)s %(ns)s, %(ew_name)s %(ew)s, "
                                       "with the target at %(target)s."),
    ("game_over", "deals_played"): _("The game is over after %(deals_played)s deals: %(ns_name)s %(ns)s, "
                                     "%(ew_name)s %(ew)s."),
    ("game_over", "match_decided"): _("The match is already decided: it has no further game."),
    ("game_over", "match_decided_before"): _("The match was decided before game %(game)s."),
    ("game_over", "bye"): _("A bye has no games to play."),
    "dealer_out_of_turn": _("This seat may not deal now: the deal passes to the next seat in the direction of "
                            "play."),
    ("dealer_out_of_turn", "next_seat"): _("%(expected)s deals this hand: %(previous)s dealt the previous one."),
    ("dealer_out_of_turn", "first_dealer"): _("%(expected)s deals the first hand of this game, not %(dealer)s."),
    ("dealer_out_of_turn", "albur"): _("%(team)s won the albur, so the other team deals first."),
    "call_not_allowed": _("This call is not allowed here."),
    ("call_not_allowed", "favourite"): _("This variant has no favourite suit."),
    ("call_not_allowed", "albur"): _("This tournament is not played with the albur."),
    ("call_not_allowed", "blind"): _("This tournament is played without blind no trump."),
    ("call_not_allowed", "blind_trump"): _("Blind is a no-trump call: the trump must be no trump."),
    ("call_not_allowed", "doublings"): _("This variant has no doublings."),
    ("call_not_allowed", "max_multiplier"): _("The calls multiply the hand by %(multiplier)s; this tournament "
                                              "allows at most %(maximum)s."),
    "penalty_not_allowed": _("This variant has no penalty %(penalty)s."),
    "tricks_total": _("The tricks of the two teams must add up to %(total)s; these add up to %(got)s."),
    "points_total": _("The points of the two teams must add up to %(total)s; these add up to %(got)s."),
    "points_impossible": _("These points are impossible with these tricks."),
    ("points_impossible", "no_tricks"): _("%(team)s took no trick, so its points are 0 (not %(got)s)."),
    ("points_impossible", "card_points"): _("With %(tricks)s tricks to %(other)s, %(team)s has between %(low)s and "
                                            "%(high)s card points, not %(card)s."),
    ("points_impossible", "card_points_exact"): _("With %(tricks)s tricks to %(other)s, %(team)s has exactly "
                                                  "%(low)s card points, not %(card)s."),
    "score_mismatch": _("The sheet says %(ns_name)s %(sheet_ns)s, %(ew_name)s %(sheet_ew)s; the hand scores "
                        "%(ns_name)s %(ns)s, %(ew_name)s %(ew)s."),
    "play_mismatch": _("The tricks or points do not match the card play."),
    ("play_mismatch", "tricks"): _("The tricks given (%(ns_name)s %(given_ns)s, %(ew_name)s %(given_ew)s) are not "
                                   "the card play's (%(ns_name)s %(ns)s, %(ew_name)s %(ew)s)."),
    ("play_mismatch", "points"): _("The points given (%(ns_name)s %(given_ns)s, %(ew_name)s %(given_ew)s) are not "
                                   "the card play's (%(ns_name)s %(ns)s, %(ew_name)s %(ew)s)."),
    "not_your_turn": _("Trick %(trick)s: %(card)s is played out of turn; %(seat)s plays now."),
    "card_not_in_hand": _("Trick %(trick)s: %(seat)s does not hold %(card)s (any more)."),
    "must_follow_suit": _("Trick %(trick)s: %(seat)s must follow suit and may not play %(card)s (legal: "
                          "%(legal_cards)s)."),
    "must_beat": _("Trick %(trick)s: %(seat)s must beat the best card of the suit and may not play %(card)s "
                   "(legal: %(legal_cards)s)."),
    "must_trump": _("Trick %(trick)s: %(seat)s must trump and may not play %(card)s (legal: %(legal_cards)s)."),
    "must_overtrump": _("Trick %(trick)s: %(seat)s must play a higher trump and may not play %(card)s (legal: "
                        "%(legal_cards)s)."),
    "no_undertrump": _("Trick %(trick)s: %(seat)s may not play the lower trump %(card)s (legal: %(legal_cards)s)."),
    "malilla_discard": _("Trick %(trick)s: %(seat)s may not throw away %(card)s, the top card of a suit not yet "
                         "led (legal: %(legal_cards)s)."),
    # -- the services: hands and games ---------------------------------------------------------------------
    "duplicate_hand": _("This hand repeats hand %(hand)s of game %(game)s, which decided that game: a request sent "
                        "again is not stored twice. To enter it as the first hand of the next game, give its "
                        "number (1)."),
    "idempotency_key_reused": _("This request's key was already used for a hand of another match."),
    "idempotency_key_mismatch": _("This entry was already sent with another hand, which is stored: nothing was "
                                  "stored now. Check the hands entered, and send this one again with a key of its "
                                  "own if it is missing."),
    "hand_exists": _("This hand is already entered."),
    ("hand_exists", "entered"): _("Hand %(number)s of game %(game)s is already entered; the next hand is "
                                  "%(next)s."),
    ("hand_exists", "meanwhile"): _("Hand %(number)s of game %(game)s was entered meanwhile."),
    "game_number": _("This hand would go to game %(game)s, not game %(asked)s: the game it was meant for is over."),
    "hand_number": _("Hand %(number)s of game %(game)s cannot come yet: the next hand is %(next)s."),
    "game_in_progress": _("Game %(game)s of this match is still being played."),
    "later_games_exist": _("A later game of this match has hands: delete those first."),
    ("later_games_exist", "correction"): _("This correction changes the result of game %(game)s, but game "
                                           "%(later)s has started: delete its hands first."),
    ("later_games_exist", "delete"): _("Game %(later)s has hands: delete them before hand %(number)s of game "
                                       "%(game)s."),
    "not_last_hand": _("Only the last hand of a game can be deleted."),
    # -- the services: rounds, entries, tournaments ---------------------------------------------------------
    "pairing_impossible": _("These teams cannot be paired without a rematch or a forbidden pair: %(teams)s. "
                            "Remove a forbidden pair or pair this round by hand."),
    "pairing_in_progress": _("A pairing of this tournament is already under way: wait for it to end."),
    "round_unfinished": _("The last round still has unfinished matches: enter their results first."),
    ("round_unfinished", "unfinished"): _("The last round still has unfinished matches (%(count)s in round "
                                          "%(round)s): enter their results first."),
    ("round_unfinished", "knockout"): _("No match of round %(round)s can be paired yet: the matches before it are "
                                        "not finished."),
    "too_few_teams": _("A round needs at least two active teams: enter more teams first."),
    ("too_few_teams", "knockout"): _("A knockout needs at least two teams."),
    "tournament_over": _("Every round of the tournament has been paired already."),
    ("tournament_over", "rounds"): _("The tournament has %(rounds)s rounds: every one is paired already."),
    ("tournament_over", "round_robin"): _("The round robin has %(rounds)s rounds: every one is paired already."),
    ("tournament_over", "final"): _("The final has been played."),
    "round_number": _("The next round to pair is round %(next)s, not round %(asked)s."),
    "late_entry_closed": _("A round robin or a knockout takes no new teams once a round is paired."),
    "already_entered": _("%(team)s is entered already."),
    "entry_withdrawn": _("%(team)s has withdrawn from the tournament; it cannot be entered again."),
    "tournament_finished": _("The tournament is finished."),
    "team_retired": _("%(team)s is retired by its club; its club manager can bring it back."),
    "already_withdrawn": _("%(team)s has withdrawn already."),
    "tournament_started": _("A round is paired already: this can no longer change."),
    ("tournament_started", "remove_entry"): _("A round is paired already: a team can no longer be removed, only "
                                              "withdrawn."),
    ("tournament_started", "frozen"): _("A round is paired already: %(fields)s can no longer change."),
    ("tournament_started", "delete"): _("A tournament with paired rounds cannot be deleted."),
    ("tournament_started", "entries"): _("Teams or players are entered already: whether the event is for teams "
                                         "or for individuals can no longer change."),
    "round_started": _("Round %(round)s has started: its pairings can no longer change."),
    "same_team": _("A team cannot play itself: choose two different teams."),
    ("same_team", "forbidden_pair"): _("A team cannot be kept apart from itself: choose two different teams."),
    "rematch": _("These two teams have met already or may not meet (a forbidden pair)."),
    "not_entered": _("That team is not an active entry of this tournament."),
    ("not_entered", "forbidden_pair"): _("Both teams must be entered in the tournament."),
    "already_forbidden": _("These two teams are kept apart already."),
    "seed": _("A seed is a whole number from 1."),
    "not_found": _("The tournament no longer exists."),
    # what a pairing task records when it fails (tournaments.tasks, services/sweep.py)
    "queue_unavailable": _("The task queue is unavailable; try again when it is back."),
    "error": _("The pairing failed because of an internal error; try again. The details are in the server log."),
    "worker_lost": _("The worker pairing this round stopped answering; pair the round again."),
    "not_started": _("No worker took up the pairing in time; check that a worker runs, then try again."),
    # -- the services: clubs, players, teams ----------------------------------------------------------------
    "name_missing": _("A name is required."),
    "name_too_long": _("A name has at most %(maximum)s characters."),
    "licence_too_long": _("A licence has at most %(maximum)s characters."),
    "licence_taken": _("Another player has licence %(licence)s already."),
    "unknown_field": _("This has no field %(fields)s."),
    ("unknown_field", "player"): _("A player has no field %(fields)s."),
    ("unknown_field", "team"): _("A team has no field %(fields)s."),
    "protected": _("This is still referred to by others and cannot be deleted."),
    ("protected", "player"): _("%(player)s is in a team and cannot be deleted: retire them instead."),
    ("protected", "team"): _("%(team)s has entered a tournament and cannot be deleted: retire it instead."),
    "player_missing": _("A team needs two players."),
    "player_other_club": _("%(player)s does not play for %(club)s."),
    "player_retired": _("%(player)s is retired: bring them back first."),
    "same_player": _("A team's two players must be two different people."),
    ("same_player", "kept_apart"): _("Choose two different players to keep apart."),
    # -- individual events ----------------------------------------------------------------------------------
    "entry_kind": _("This kind of entry does not suit this tournament."),
    ("entry_kind", "individual"): _("Players enter this tournament alone: enter a player, not a team."),
    ("entry_kind", "teams"): _("Teams enter this tournament: enter a team, not a player."),
    "start_number": _("A start number is a whole number from 1, not %(value)s."),
    "start_number_taken": _("Start number %(number)s is taken already."),
    "fixed_table": _("A table number is a whole number from 1, not %(value)s."),
    "already_kept_apart": _("These two players are kept apart already."),
    ("not_entered", "kept_apart"): _("Both players must be entered in the tournament."),
    ("tournament_started", "start_numbers"): _("A round is drawn already: the start numbers can no longer change."),
    ("tournament_started", "reserve"): _("%(player)s has been drawn to a round already: whether they are a reserve "
                                         "can no longer change."),
    "round_not_last": _("Only the last round can be drawn again; round %(round)s is not the last."),
    "no_draw": _("Round %(round)s has no draw to check."),
    "team_only_metrics": _("%(metrics)s rank teams only; an individual event ranks by %(known)s."),
    # the draw of individual events (tournaments.pairing.individual): players named by their start numbers
    "constraint_unsatisfiable": _("No draw keeps the players with start numbers %(pair)s apart: remove that "
                                  "constraint or enter more players."),
    "no_partnership_left": _("No draw gives every player a new partner: start numbers %(players)s have partnered "
                             "everyone they could."),
    "fixed_table_taken": _("Start numbers %(players)s are all fixed to table %(table)s: only one player can keep a "
                           "table."),
    "fixed_table_out_of_range": _("Start number %(player)s is fixed to table %(table)s, but the round has %(tables)s "
                                  "tables."),
    "fixed_table_mid_cycle": _("Start number %(player)s was fixed to table %(table)s after its cycle began: it "
                               "counts from the next draw of tables."),
    "reserve_invalid": _("Start number %(reserve)s cannot take the seat of start number %(player)s in this cycle."),
    "cycle_round_missing": _("Round %(round)s of this cycle is missing: the next rounds cannot be derived from it."),
    "player_left_mid_cycle": _("Start numbers %(players)s left during the cycle and have no reserve."),
    "duplicate_player": _("Start number %(number)s is in the draw twice."),
    "version_unknown": _("This draw was made by version %(version)s of the draw, which this server does not know "
                         "(it knows %(known)s)."),
    "format_unknown": _("The draw knows the formats %(known)s, not %(format)s."),
    "round_invalid": _("Round %(round)s is not a round a draw can make."),
    "inputs_invalid": _("The draw's inputs are not valid at %(field)s."),
    "history_invalid": _("The earlier round %(round)s given to the draw is not valid."),
    "too_few_players": _("A draw needs at least %(needed)s players; %(players)s are entered."),
    "format_for_entry": _("The format %(format)s does not suit this kind of event; choose one of %(known)s."),
    **STAGE_SENTENCES,  # the stages of an event (tournaments/refusals_stages.py)
    "match_length_incomplete": _("This match length needs %(field)s."),
    "sit_out_fixed_invalid": _("The fixed score of a sit-out gives whole numbers for %(known)s."),
    "clock_minutes": _("Give the minutes as a whole number from 1 to %(maximum)s, not %(value)s."),
    "clock_started": _("The clock of round %(round)s is started already."),
    "clock_not_running": _("The clock of round %(round)s is not running."),
    "clock_not_paused": _("The clock of round %(round)s is not paused."),
    "clock_not_started": _("The clock of round %(round)s has not started."),
    "round_time_over": _("The time of round %(round)s ended at %(ended)s: no new game can start."),
    "team_exists": _("%(club)s has a team called %(name)s already."),
    **CONFIRMATION_SENTENCES,
    # -- a tournament's settings (Tournament.clean, through InvalidFields) ----------------------------------
    "unknown_variant": _("Unknown variant %(variant)s; one of %(known)s."),
    "invalid_tiebreaks": _("Unknown standings measures %(unknown)s; the measures are %(known)s."),
    "draw_above_win": _("A draw cannot be worth more than a win (%(win)s points)."),
    "bye_above_win": _("A bye cannot be worth more than a win (%(win)s points)."),
    "tournament_exists": _("There is a tournament called %(name)s on %(date)s already%(club)s; give this one "
                           "another name or date."),
    # ... and Django's own checks of a field
    "min_value": _("This value must be at least %(limit_value)s."),
    "max_value": _("This value must be at most %(limit_value)s."),
    "null": _("A value is required here."),
    "blank": _("A value is required here."),
    "required": _("A value is required here."),
    "invalid": _("This value is not valid."),
    "invalid_choice": _("This value is not one of the choices."),
    # -- the workspace's own (web/workspace/entry.py)
    "signed_out": _("You are signed out: sign in again to send your hands."),
    # -- the API's own refusals (api/exceptions.py) --------------------------------------------------------
    "integrity": _("The change conflicts with stored data (a duplicate or a concurrent change)."),
    "out_of_range": _("A value is out of range."),
    "too_large": _("The request body is larger than %(limit)s bytes."),
    "too_many_fields": _("The request has too many fields."),
    "parse_error": _("The request body cannot be read."),
    "invalid_cursor": _("updated_after takes the cursor of an earlier answer, 0, or an ISO 8601 time with its "
                        "offset."),
    ("parse_error", "nested"): _("The request body is nested too deeply."),
    # -- the push channel's stream (api/push.py) ------------------------------------------------------------
    "ticket_invalid": _("This ticket is not one the server gave: ask for a new one (POST /api/v1/push/tickets/)."),
    "ticket_expired": _("This ticket has lapsed: a ticket opens a stream within %(seconds)s seconds. Ask for a new "
                        "one."),
    "ticket_used": _("This ticket was used already: a ticket opens one stream. Ask for a new one."),
    "push_connections": _("You have %(limit)s streams open already, the most allowed: close one first."),
    "push_unavailable": _("The push channel is unavailable for a moment: try again shortly."),
    ("push_unavailable", "server"): _("This server does not hold streams: the push channel is served by the ASGI "
                                      "server (see the README)."),
    **DESK_SENTENCES,
}

#: A malformed value of a field of a hand's entry form (the workspace, the admin): what the field needs.
FORM_FIELD_SENTENCES = {
    "dealer": _("Choose the dealer."),
    "trump": _("Choose the trump."),
    "turned_card": _("Choose the turned-up card."),
    "tricks": _("Enter the tricks of both sides: whole numbers, 0 or more."),
    "points": _("Enter the points of both sides: whole numbers, 0 or more."),
    "doublings": _("Choose how many times the hand was doubled."),
    "penalty": _("Choose the penalty and the side that broke the rule."),
}
#: The reasons of an ``invalid_input`` that are a malformed value (the form's field says what it needs).
_MALFORMED = {"sides", "integer", "minimum", "string", "boolean", "seat", "suit", "side", "penalty_shape",
              "whole_number", "rank_and_suit"}

#: Where each code arises and its HTTP status: ``engine`` (scoring's checks), ``service`` (a ServiceError
#: of tournaments/services, or an engine-shaped refusal a service makes), ``task`` (a failed pairing's
#: record), ``settings`` (a tournament's settings), ``api`` (api/exceptions.py). docs/refusals.md lists them.
CATALOGUE = {
    **{code: ("engine", 400) for code in (
        "invalid_input", "invalid_option", "options_inconsistent", "unknown_card", "trump_invalid", "deck_invalid",
        "game_over", "dealer_out_of_turn", "call_not_allowed", "penalty_not_allowed", "tricks_total", "points_total",
        "points_impossible", "score_mismatch", "play_mismatch", "not_your_turn", "card_not_in_hand",
        "must_follow_suit", "must_beat", "must_trump", "must_overtrump", "no_undertrump", "malilla_discard")},
    **{code: ("service", 409) for code in (
        "duplicate_hand", "idempotency_key_reused", "hand_exists", "game_number", "hand_number", "game_in_progress",
        "later_games_exist", "not_last_hand", "pairing_in_progress", "round_unfinished", "round_number",
        "already_entered", "entry_withdrawn", "tournament_finished", "team_retired", "already_withdrawn",
        "tournament_started", "round_started", "already_forbidden", "protected", "start_number_taken",
        "already_kept_apart", "round_not_last", "clock_started", "clock_not_running", "clock_not_paused",
        "clock_not_started", "round_time_over", "multi_stage", "stage_not_running", "stage_previous_open",
        "stage_closed", "stage_status", "stage_unplayed", "stage_reopen_refused", "stage_round_unpublished")},
    **CONFIRMATION_CATALOGUE,
    "idempotency_key_mismatch": ("service", 422),
    **{code: ("service", 400) for code in (
        "pairing_impossible", "too_few_teams", "tournament_over", "late_entry_closed", "same_team", "rematch",
        "not_entered", "seed", "name_missing", "name_too_long", "licence_too_long", "licence_taken",
        "unknown_field", "player_missing", "player_other_club", "player_retired", "same_player", "team_exists",
        "entry_kind", "start_number", "fixed_table", "no_draw", "too_few_players", "clock_minutes",
        "constraint_unsatisfiable", "no_partnership_left", "fixed_table_taken", "fixed_table_out_of_range",
        "fixed_table_mid_cycle", "reserve_invalid", "cycle_round_missing", "player_left_mid_cycle",
        "duplicate_player", "version_unknown", "format_unknown", "round_invalid", "inputs_invalid",
        "history_invalid", "pool_count", "stage_capacity", "qualification_invalid", "carry_over_invalid",
        "stage_inputs_invalid")},
    **DESK_CATALOGUE,
    **{code: ("task", None) for code in ("not_found", "queue_unavailable", "error", "worker_lost", "not_started")},
    **{code: ("settings", 400) for code in (
        "unknown_variant", "invalid_tiebreaks", "draw_above_win", "bye_above_win", "tournament_exists",
        "format_for_entry", "match_length_incomplete", "sit_out_fixed_invalid", "team_only_metrics",
        "min_value", "max_value", "null", "blank", "required", "invalid", "invalid_choice")},
    "integrity": ("api", 409), "out_of_range": ("api", 400), "too_large": ("api", 413),
    "too_many_fields": ("api", 400), "parse_error": ("api", 400), "invalid_cursor": ("api", 400),
    "ticket_invalid": ("api", 401), "ticket_expired": ("api", 401), "ticket_used": ("api", 401),
    "push_connections": ("api", 429), "push_unavailable": ("api", 503),
    "signed_out": ("workspace", 401),
}

_SEAT_PARAMS = ("seat", "previous", "expected", "dealer", "played_by")
_SIDE_PARAMS = ("side", "winner")


def _seat(letter: Any) -> str:
    return vocabulary.seat(letter) if isinstance(letter, str) else str(letter)


def side_names(names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return the sides' names: the teams' where given, else "NS" and "EW" as the active language writes them."""
    names = names or {}
    return {side: names.get(side) or vocabulary.side_name(side, short=True) for side in ("ns", "ew")}


def _shown(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) or "—"
    return "?" if value is None else value


def _values(code: str, params: Mapping[str, Any], names: Mapping[str, str] | None) -> vocabulary.Params:
    sides = side_names(names)
    values = vocabulary.Params({key: _shown(value) for key, value in params.items()})
    values.update(ns_name=sides["ns"], ew_name=sides["ew"])
    for key in _SEAT_PARAMS:
        if key in params:
            values[key] = _seat(params[key])
    if "seats" in params and isinstance(params["seats"], (list, tuple)):
        values["seats"] = ", ".join(_seat(s) for s in params["seats"])
    for key in _SIDE_PARAMS:
        if params.get(key) in sides:
            values[key] = values["team"] = sides[params[key]]
    if code in ("tricks_total", "points_total"):
        values["got"] = values.get("sum", "?")
    if code == "points_impossible":
        values.update(got=params.get("points", "?"), other=params.get("other_tricks", "?"),
                      card=params.get("card_points", "?"))
    return values


def _key(code: str, params: Mapping[str, Any]):
    reason = params.get("reason")
    if code == "play_mismatch":
        reason = params.get("field")
    elif code == "points_impossible" and reason == "card_points" and params.get("low") == params.get("high"):
        reason = "card_points_exact"
    return (code, reason) if (code, reason) in SENTENCES else code


def words(code: str, params: Mapping[str, Any] | None = None, *, names: Mapping[str, str] | None = None) -> str:
    """Return a refusal in the active language: the sentence of its code (and reason), with its params.

    ``names`` ({"ns": ..., "ew": ...}) are the teams where the refusal names a side; without them "NS"/"EW".
    An unknown code still gets a sentence: "The request was refused (code)."
    """
    params = params or {}
    key = _key(code, params)
    if key not in SENTENCES:
        return gettext("The request was refused (%(code)s).") % {"code": code}
    return str(SENTENCES[key] % _values(code, params, names))


def form_words(code: str, form_field: str, params: Mapping[str, Any] | None = None, *,
               names: Mapping[str, str] | None = None) -> str:
    """Return a refusal as a hand's entry form shows it: ``words``, but what the field needs for a malformed value."""
    params = params or {}
    if code == "invalid_input" and form_field in FORM_FIELD_SENTENCES and params.get("reason") in _MALFORMED:
        return str(FORM_FIELD_SENTENCES[form_field])
    return words(code, params, names=names)


def validation_error(code: str, params: Mapping[str, Any] | None = None, *,
                     names: Mapping[str, str] | None = None) -> ValidationError:
    """Return a refusal as a Django ``ValidationError`` for a form or a model's ``clean``: its words (in the
    language active when shown), its code and its params (which ``InvalidFields`` carries on)."""
    params = dict(params or {})

    def shown() -> str:
        said = words(code, params, names=names)
        return said.replace("%", "%%") if params else said  # Django formats the message with its params

    return ValidationError(lazy(shown, str)(), code=code, params=params or None)


def items(exc: Exception) -> list[tuple[str, str | None, dict]]:
    """Return a refusal's items as ``(code, field, params)``: the engine's violations or a service's errors."""
    violations = getattr(exc, "violations", None)
    if violations is not None:
        return [(v.code, v.field, dict(v.params)) for v in violations]
    errors = getattr(exc, "errors", None)
    if errors is not None:
        return [(code, field, dict(params or {})) for code, field, params in errors]
    raise TypeError(f"not a refusal: {exc!r}")


def render(exc: Exception, *, names: Mapping[str, str] | None = None) -> list[dict]:
    """Return a refusal as the API writes its errors: ``{code, attr, detail}`` each, in the active language."""
    return [{"code": code, "attr": field, "detail": words(code, params, names=names)}
            for code, field, params in items(exc)]


def text(exc: Exception, *, names: Mapping[str, str] | None = None) -> str:
    """Return a whole refusal as one text (its sentences one after the other)."""
    return " ".join(item["detail"] for item in render(exc, names=names))


def stored(error: Mapping[str, Any] | None) -> dict | None:
    """Return a recorded refusal (a failed task's ``{code, detail, attr, params}``) with its detail in words."""
    if not error:
        return None
    answer = dict(error)
    recorded = "params" in answer
    params = answer.pop("params", None) or {}
    key = _key(answer.get("code") or "", params)
    # A refusal recorded before its params were kept keeps its words, unless its sentence needs none.
    if key in SENTENCES and (recorded or "%(" not in str(SENTENCES[key])):
        answer["detail"] = words(answer["code"], params)
    return answer

