"""The schema class: drf-standardized-errors' AutoSchema plus the 409 and rule-violation answers.

A view says which of its methods can conflict with the current state (``conflict_methods``) and
which are checked by the rules engine (``rule_methods``); the schema then documents a 409 answer,
and a 400 whose errors carry the codes of rules.md §4 (free strings: the engine names them).
"""

from drf_spectacular.utils import PolymorphicProxySerializer
from drf_standardized_errors.openapi import AutoSchema as BaseAutoSchema
from drf_standardized_errors.openapi_serializers import ClientErrorEnum, ValidationErrorEnum
from rest_framework import permissions, serializers
from rest_framework.filters import SearchFilter

from .filters import OrderingFilter

from .openapi_http import HttpSchemaMixin

RULE_CODES = (
    "unknown_card", "dealer_out_of_turn", "game_over", "trump_invalid", "call_not_allowed", "tricks_total",
    "points_total", "points_impossible", "penalty_not_allowed", "deck_invalid", "not_your_turn",
    "card_not_in_hand", "must_follow_suit", "must_beat", "must_trump", "must_overtrump", "no_undertrump",
    "malilla_discard", "score_mismatch", "invalid_option", "invalid_input",
)


class RuleErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A code of rules.md §4 (" + ", ".join(RULE_CODES) + "), a refusal of "
                                           "docs/refusals.md (`too_few_teams`, `late_entry_closed`, ...) or a field "
                                           "validation code (required, invalid, max_value, ...).")
    attr = serializers.CharField(allow_null=True, help_text="The field concerned, dotted (`points`, `play.cards`).")
    detail = serializers.CharField(help_text="A message naming the numbers involved.")


class RuleValidationErrorResponseSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ValidationErrorEnum.choices)
    errors = RuleErrorSerializer(many=True)

    class Meta:
        ref_name = "RuleValidationErrorResponse"


class ConflictErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="Why: `hand_exists`, `protected`, `round_paired`, ...")
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


class ErrorResponse409Serializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=ClientErrorEnum.choices)
    errors = ConflictErrorSerializer(many=True)


class MismatchErrorSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=[("idempotency_key_mismatch", "idempotency_key_mismatch")])
    detail = serializers.CharField()
    attr = serializers.CharField(allow_null=True)


class ErrorResponse422Serializer(serializers.Serializer):
    """422: the Idempotency-Key was already used for another request (the IETF Idempotency-Key draft's answer)."""

    type = serializers.ChoiceField(choices=ClientErrorEnum.choices)
    errors = MismatchErrorSerializer(many=True)


class ErrorsAutoSchema(BaseAutoSchema):
    """Document 409 where a view can conflict, and rule-violation 400s where the engine checks."""

    def _in(self, attribute: str) -> bool:
        return self.method.upper() in {m.upper() for m in getattr(self.view, attribute, ())}

    def _should_add_error_response(self, responses: dict, status_code: str) -> bool:
        if status_code == "409":
            return status_code not in responses and self._in("conflict_methods")
        if status_code == "403" and self._in("forbidden_methods"):  # refusals of who asks (a confirmation's)
            return status_code not in responses
        return super()._should_add_error_response(responses, status_code)

    def _should_add_validation_error_response(self) -> bool:
        return self._in("rule_methods") or super()._should_add_validation_error_response()

    def _get_extra_validation_errors(self):
        """Add the 400s of the query string: DRF's ``?search=`` and a view's ``query_serializer``."""
        errors = dict(super()._get_extra_validation_errors())
        if self.method == "GET":
            if getattr(self.view, "search_fields", None) and any(
                    isinstance(b, SearchFilter) or (isinstance(b, type) and issubclass(b, SearchFilter))
                    for b in self.get_filter_backends()):
                errors.setdefault("search", set()).add("null_characters_not_allowed")
            if OrderingFilter.choices(self.view) and any(
                    isinstance(b, OrderingFilter) or (isinstance(b, type) and issubclass(b, OrderingFilter))
                    for b in self.get_filter_backends()):
                errors.setdefault("ordering", set()).add("invalid_choice")
            query = getattr(self.view, "query_serializer", None)
            for name, field in (query().fields.items() if query else ()):
                errors.setdefault(name, set()).update(field.error_messages)
        return errors

    def _get_serializer_for_validation_error_response(self):
        if self._in("rule_methods"):
            return RuleValidationErrorResponseSerializer
        return super()._get_serializer_for_validation_error_response()

    def _get_http400_serializer(self):
        serializer = super()._get_http400_serializer()
        if isinstance(serializer, PolymorphicProxySerializer) and not serializer.serializers:
            return None
        return serializer

    def _should_add_http429_error_response(self) -> bool:
        return any(getattr(t, "applies_to_method", lambda m: True)(self.method) for t in self.view.get_throttles())


# ---------------------------------------------------------------------------------------------------------------
# Tags, descriptions, authentication (issue 13): the operations grouped by what they are about, each described.

TAG_OF_PREFIX = (  # the first match wins: (path prefix under /api/v1/, tag)
    ("tournaments/{tournament_id}/rounds/", "rounds"),
    ("tournaments/", "tournaments"),
    ("variants/", "variants"),
    ("clubs/", "clubs and teams"),
    ("players/", "clubs and teams"),
    ("teams/", "clubs and teams"),
    ("matches/", "matches"),
    ("hands/", "hands"),
    ("tasks/", "tasks"),
    ("auth/", "auth"),
    ("push/", "push"),
)

_PUBLIC = "Public tournaments need no authentication; a private one answers 404 except to its organizers, " \
          "directors, scorekeepers and staff."
_REGISTRY = "Reading needs no authentication. Writing needs a manager of the club (or staff)"

_ONE_REQUEST = ("Answers a strong `ETag`, and 304 to `If-None-Match` while nothing changed: a wall polls it every "
                "few seconds for the cost of one cache read. The ETag changes with every hand entered, corrected "
                "or deleted at any table of the tournament, every pairing and every rename. Public tournaments "
                "need no authentication; a private one answers 404 except to its organizers, directors, "
                "scorekeepers and staff.")

DESCRIPTIONS = {
    "v1_tournaments_rounds_tables_retrieve": (
        "Every match of the round in table order, each with its teams (and their clubs), the players of each side, "
        "`bye`, the status and `result_status`, games won, the match's points and the current game's number and "
        "points: what a wall shows, in one request instead of one scoreboard a table. " + _ONE_REQUEST),
    "v1_tournaments_live_retrieve": (
        "Every match of the tournament with a hand entered and not finished (`status` `playing`), by round and "
        "table, in the shape of a round's tables. A match leaves the list when it is finished. " + _ONE_REQUEST),
    "v1_hands_list": (
        "The stored hands, by match, game and number, each with its game and match. With `updated_after`, the "
        "hands entered or changed since that cursor in the order they changed, and the hands deleted since as "
        "tombstones (`{\"id\", \"deleted\": true, \"deleted_at\", \"game_id\", \"match\"}`), with the `cursor` to "
        "send next time. " + _PUBLIC),
    "v1_auth_token_create": "Exchange a username and password for the user's API token. Send the token on every "
                            "write as `Authorization: Token <key>`. Throttled more strictly than other writes.",
    "v1_auth_logout_create": "Sign out: revoke the token this request is sent with. Your other devices' tokens "
                              "stay valid.",
    "v1_auth_tokens_list": "Your tokens, newest first: an id (the key's first characters), the device name, when it "
                           "was issued and when it expires. Never a key.",
    "v1_auth_tokens_destroy": "Revoke one of your tokens by its id (a lost phone, a device you no longer use).",
    "v1_tournaments_webhooks_list": "The URLs registered to receive the tournament's events, each with its signing "
                                    "secret and its last delivery. Organizers or staff.",
    "v1_tournaments_webhooks_create": "Register a URL (http or https) to receive the tournament's events as signed "
                                      "JSON POSTs: `hand.entered`, `hand.corrected`, `hand.deleted`, "
                                      "`match.finished`, `round.paired`, `round.published`, `standings.updated`, "
                                      "`director.action`, `result.confirmed`, `result.disputed`, `result.settled` (all "
                                      "when `events` is empty). The answer carries the secret of `X-Manille-Signature`. Organizers "
                                      "or staff.",
    "v1_tournaments_webhooks_retrieve": "One webhook with its secret and last delivery. Organizers or staff.",
    "v1_tournaments_webhooks_partial_update": "Change a webhook's URL, events, description or whether it is "
                                              "active. Organizers or staff.",
    "v1_tournaments_webhooks_destroy": "Remove a webhook and its delivery log. Organizers or staff.",
    "v1_tournaments_webhooks_test_create": "Send a `webhook.test` event to this URL now (active or not) and answer "
                                           "the delivery: its status, the receiver's answer and how long it took "
                                           "(still `pending` while a worker sends it). Organizers or staff.",
    "v1_tournaments_webhooks_rotate_secret_create": "Replace the webhook's signing secret; the answer carries the "
                                                    "new one. Organizers or staff.",
    "v1_tournaments_webhooks_deliveries_list": "The webhook's last deliveries, newest first: event, status, "
                                               "attempts, the receiver's status code, the start of its answer, the "
                                               "duration. Organizers or staff.",
    "v1_auth_me_retrieve": "Who you are: your user, the clubs you manage, the tournaments you organize and those "
                           "you keep score of.",
    "v1_variants_list": "The six variants of the rules engine: deck, card points, tricks, targets, trump mode and "
                        "house options with their defaults. Public.",
    "v1_variants_retrieve": "One variant by its slug (`belgian-manille`, `spanish-manilla`, ...). Public.",
    "v1_variants_score_create": "Score one hand without storing it: the same checks and the same answer as "
                                "entering a hand, with the game's totals given in `state`. Public; a rule "
                                "violation is a 400 whose error carries the rule's code.",
    "v1_variants_check_play_create": "Check a full or partial card play: tricks, leaders, winners and points; an "
                                     "illegal card is answered 200 with `legal: false` and the violation. A "
                                     "malformed request (an unknown card, a deck that is not whole) is a 400.",
    "v1_clubs_list": "The clubs, searchable by name and city. Public.",
    "v1_clubs_create": "Found a club. Any signed-in user may; the creator becomes one of its managers.",
    "v1_clubs_retrieve": "One club with its managers. Public.",
    "v1_clubs_update": "Replace a club. Its managers or staff.",
    "v1_clubs_partial_update": "Change some fields of a club. Its managers or staff.",
    "v1_clubs_destroy": "Delete a club; 409 while it still has players, teams or tournaments.",
    "v1_players_list": f"The players, filterable by club and searchable by name or licence. {_REGISTRY}.",
    "v1_players_create": f"Register a player in a club. {_REGISTRY}.",
    "v1_players_retrieve": "One player. Public.",
    "v1_players_update": f"Replace a player. {_REGISTRY} (of both clubs when the player moves).",
    "v1_players_partial_update": f"Change some fields of a player. {_REGISTRY} (of both clubs when the player "
                                 "moves).",
    "v1_players_destroy": "Delete a player; 409 while the player is in a team.",
    "v1_teams_list": f"The teams (two players each), filterable by club. {_REGISTRY}.",
    "v1_teams_create": f"Form a team of two different players. {_REGISTRY}.",
    "v1_teams_retrieve": "One team with its players' ids. Public.",
    "v1_teams_update": f"Replace a team. {_REGISTRY}.",
    "v1_teams_partial_update": f"Change some fields of a team. {_REGISTRY}.",
    "v1_teams_destroy": "Delete a team; 409 once it has entered a tournament.",
    "v1_tournaments_list": "The tournaments you may see: every public one, and the private ones you organize "
                           "or keep score of. Filterable by variant, format, status, club; searchable by name.",
    "v1_tournaments_create": "Create a tournament: a variant, a format, a number of rounds, a best-of and house "
                             "options (checked by the rules engine). The creator becomes an organizer; in a "
                             "club's name it needs one of the club's managers.",
    "v1_tournaments_retrieve": f"One tournament, by its id or its slug. `tiebreaks` shows the order the standings "
                               f"use (the default order when none was chosen). {_PUBLIC}",
    "v1_tournaments_update": "Replace a tournament, by id or slug. Its organizers or staff; 409 for a change the "
                             "played rounds no longer allow.",
    "v1_tournaments_partial_update": "Change some fields of a tournament, by id or slug. Its organizers or staff; "
                                     "409 for a change the played rounds no longer allow.",
    "v1_tournaments_destroy": "Delete a tournament; 409 once a round is paired.",
    "v1_tournaments_entries_list": f"The teams entered, with their seed and whether they withdrew; an individual "
                                   f"event's players by start number, with their club. {_PUBLIC}",
    "v1_tournaments_entries_create": "Enter a team (`{\"team\": 5}`; late entries are allowed between rounds), or "
                                     "in an individual event a player (`{\"player\": 11}`, optional "
                                     "`start_number`, `fixed_table`, `reserve`; a late entry plays from the next "
                                     "draw). A team into an individual event, or a player into a team event, is "
                                     "refused (`entry_kind`). Organizers or staff; 409 when already entered.",
    "v1_tournaments_entries_start_numbers_partial_update": (
        "Individual events, before the first draw: set several start numbers at once (`{\"numbers\": [{\"entry\": "
        "3, \"start_number\": 7}, ...]}`; numbers may be swapped), and answer every entry by start number. The "
        "draw reads players by start number, never by database id. Organizers or staff; 409 once a round is drawn "
        "(`tournament_started`) or for a number taken (`start_number_taken`)."),
    "v1_tournaments_actions_list": "The director's desk: every action taken in the tournament (forfeits, withdrawals "
                                   "mid-match and from the event, adjusted results, penalties, drawn knockouts "
                                   "decided, deductions), in the order taken, each with its reason and actor; "
                                   "reverted ones are kept, marked. Directors (organizers, its directors) or staff.",
    "v1_tournaments_actions_retrieve": "One action of the director's desk. Directors (organizers, its directors) or staff.",
    "v1_tournaments_actions_create": "Take an action of the director's desk, with its reason. An action on a match "
                                     "changes no hand: the match's result is worked out again from its games with "
                                     "the action applied, and stays so after later corrections; the standings are "
                                     "recomputed. Refused with a code, nothing changed, when it makes no sense: "
                                     "`match_other_tournament`, `entry_other_tournament`, `match_is_bye`, "
                                     "`match_started` (a forfeit after games were played), `match_not_started` and "
                                     "`match_finished` (a withdrawal mid-match), `match_not_drawn` and "
                                     "`not_knockout` (a decision), `action_active` (one of a kind at a time), "
                                     "`action_params`, `reason_missing`. `rounds_kept` names the later rounds "
                                     "already paired, which stay. Directors (organizers, its directors) or staff.",
    "v1_tournaments_actions_preview_create": "What an action would do to the standings before it is taken: the "
                                             "same body as taking it (`reason` optional), the same refusals; the "
                                             "answer lists the standings rows whose rank, numbers or tiebreaks "
                                             "would change, before and after. Nothing is saved, sent nor "
                                             "announced. Directors (organizers, its directors) or staff.",
    "v1_tournaments_actions_revert_create": "Revert an action: the result (or the entry, or the standings total) is "
                                            "worked out again without it; the action is kept, marked reverted. "
                                            "Rounds paired since stay as they are (`rounds_kept`). 409 "
                                            "`action_reverted` for an action reverted already. Directors (organizers, its directors) or staff.",
    "v1_tournaments_kept_apart_list": "Individual events: the pairs of players the draws never seat at one table. "
                                      "`reason` is shown to the organizers only. " + _PUBLIC,
    "v1_tournaments_kept_apart_create": "Keep two entered players apart in every draw from now on (a hard rule: a "
                                        "draw that cannot keep them apart is refused, `constraint_unsatisfiable`). "
                                        "Organizers or staff; 409 for a pair kept apart already.",
    "v1_tournaments_kept_apart_retrieve": "A pair of players kept apart. " + _PUBLIC,
    "v1_tournaments_kept_apart_destroy": "No longer keep two players apart (the draws to come). Organizers or staff.",
    "v1_tournaments_entries_retrieve": f"One entry. {_PUBLIC}",
    "v1_tournaments_entries_partial_update": "Change an entry's seed, or in an individual event its start number "
                                             "(before the first draw). Organizers or staff.",
    "v1_tournaments_entries_destroy": "Withdraw a team: it is not paired again and its played results stand. In an "
                                      "individual event, a player who withdraws mid-cycle is replaced by a reserve "
                                      "or their table sits the cycle's remaining rounds out (the event's "
                                      "`withdrawal` rule). Organizers or staff.",
    "v1_tournaments_rounds_list": f"The rounds with their tables: each match's teams (ids, and names with clubs "
                                  f"in `ns_detail`/`ew_detail`), its `players` by side, `bye`, status and winner. "
                                  f"In an individual event the team fields are null, each round lists the players "
                                  f"`sitting_out` and the `seed` of its draw. Each round carries its `clock` and "
                                  f"the number of its `stage`, and whether it is `published`: a round not yet "
                                  f"published (an event whose `auto_publish` is off) is listed to the event's "
                                  f"organizers, directors and scorekeepers alone. {_PUBLIC}",
    "v1_tournaments_stages_list": f"The event's stages in order, each with its `number`, `format`, `status` "
                                  f"(`pending`, `running`, `closed`), `rounds` (planned) and `round_count` (paired), "
                                  f"match length, `pools` and its `qualification` rule into the next stage (null on "
                                  f"the last). Every event has stage 1, which the tournament's own `format`, "
                                  f"`rounds` and match length describe. {_PUBLIC}",
    "v1_tournaments_stages_retrieve": f"One stage by its number (see the list). {_PUBLIC}",
    "v1_tournaments_stages_create": "Add the next stage (pending) after the last, with `previous_qualification`: "
                                    "the rule that leads into it from the stage before (required unless that stage "
                                    "has one). The whole plan is checked against the active entries: 400 for a "
                                    "format that does not suit the event (`format_for_entry`), a pool count outside "
                                    "1 to half the field (`pool_count`), a field that does not fit a stage "
                                    "(`stage_capacity`), a rule that does not fit (`qualification_invalid`) or a "
                                    "carry-over into a knockout (`carry_over_invalid`). Once a second stage exists, "
                                    "the tournament's `format`, `rounds` and match length can no longer change (409 "
                                    "`multi_stage`). Organizers or staff.",
    "v1_tournaments_stages_rounds_list": f"The stage's rounds with their tables, as the tournament's rounds list "
                                         f"gives them; their numbers count within the stage. {_PUBLIC}",
    "v1_tournaments_stages_partial_update": "Change a stage before its first round: a pending stage's format, rounds, "
                                            "match length, `pools` and `seed`; stage 1's `pools` and `seed` only (the "
                                            "rest is the tournament's). The plan is checked again as when a stage is "
                                            "added (400 with the same codes); 409 `stage_status` once the stage has a "
                                            "round. Organizers or staff.",
    "v1_tournaments_stages_close_create": "Close the running stage: its standings are computed and cut by its "
                                          "`qualification` rule, and the qualifiers become the next stage's entrants "
                                          "with their seeds (the cut's ties: the stage's `standings`). 409 "
                                          "`stage_status` for a stage not running, `stage_unplayed` before any round, "
                                          "`round_unfinished` while a match is unfinished, `stage_round_unpublished` while a round of "
                                          "the stage is not published (publish it first). Sends `stage.closed`. "
                                          "Organizers or staff.",
    "v1_tournaments_stages_start_create": "Start a pending stage once the one before is closed (409 "
                                          "`stage_previous_open`; `stage_status` for a stage not pending): its pools "
                                          "(a serpentine by pots from the previous stage's order, clubs apart inside a "
                                          "pot) or its bracket (seeds 1 and 2 in opposite halves, pool-mates apart in "
                                          "round 1) are drawn from its published `seed`. Then its rounds are paired "
                                          "as usual (`POST .../rounds/`). Sends `stage.started`. Organizers or staff.",
    "v1_tournaments_stages_reopen_create": "Reopen a closed stage so that a result or a pairing in it can change "
                                           "(refused in a closed stage: 409 `stage_closed`). 409 "
                                           "`stage_reopen_refused` once the next stage has a result. Closing it again "
                                           "recomputes the qualifiers and draws a started next stage anew from a new "
                                           "seed (the old draw kept). Organizers or staff.",
    "v1_tournaments_stages_entrants_create": "Place an entrant by hand in a stage that has not started (audited in "
                                             "the stage's log): its `seed` (last when left out; the seeds after move "
                                             "down) and, in a pools stage, its `pool`. 409 `stage_status` once the "
                                             "stage has a round, `already_entered` for an entrant in it already. "
                                             "Organizers or staff.",
    "v1_tournaments_stages_standings_retrieve": f"The stage's standings: each row with its `stage`, `pool` and "
                                                f"`pool_rank` (a pools stage; `?pool=` gives one pool) and "
                                                f"`qualified` (null until the stage closes); a pools stage is ordered "
                                                f"place by place across the pools, compared per match played. `ties` "
                                                f"says how each cut was decided, `replacements` who went on for a "
                                                f"withdrawn qualifier. {_PUBLIC}",
    "v1_tournaments_rounds_create": "Pair the next round, or draw it in an individual event. Pairing runs in a "
                                    "worker: the answer is 202 with the task to follow at `status_url`. 409 while a "
                                    "pairing is under way or the last round is unfinished (unless `force`); 400 for "
                                    "too few teams (`too_few_teams`) or players (`too_few_players`: four at least). "
                                    "Organizers or staff.",
    "v1_tournaments_rounds_retrieve": f"One round by its number, with its tables (see the list). {_PUBLIC}",
    "v1_tournaments_rounds_draw_retrieve": (
        "Individual events: the round's draw as anyone may check it. Every draw kept for the round (a redraw adds "
        "one), oldest first, each with its seed, the algorithm's version, its inputs (start numbers, clubs, "
        "constraints, the earlier rounds, the seed) and its result; the one in use is marked `in_use`, its inputs "
        "and result also at the top. The pure draw module makes the same draw again from `inputs` alone: this "
        "answer as it is goes to `python -m tournaments.pairing.individual.check -`. A team event's rounds have "
        "none. " + _PUBLIC),
    "v1_tournaments_rounds_publish_create": "Publish the round: from now on everyone who sees the event sees it "
                                            "(until then, an event whose `auto_publish` is off keeps it with its "
                                            "organizers, directors and scorekeepers: a 404 to others). Answers the "
                                            "round; a round published already is answered as it is. Sends the "
                                            "webhook `round.published`. Organizers or staff.",
    "v1_tournaments_rounds_redraw_create": "Individual events: draw the last round again with a new seed while none "
                                           "of its matches has begun; the earlier draw stays kept. Answers the "
                                           "round. Organizers or staff; 409 once a game is played "
                                           "(`round_started`) or for an earlier round (`round_not_last`).",
    "v1_tournaments_rounds_clock_retrieve": "The round clock as the server keeps it, with the seconds `remaining` "
                                            "at `server_time`: a page counts down from it, right after a reload or a "
                                            "lost connection. Never a kept answer. " + _PUBLIC,
    "v1_tournaments_rounds_clock_create": "Start the round clock (for `minutes`, the event's minutes a round by "
                                          "default), pause it, resume it, extend it by `minutes` or end it (the "
                                          "timed matches without a game in play are then decided). Answers the "
                                          "clock. Organizers or staff; 409 for an action the clock's state does not "
                                          "allow (`clock_started`, `clock_not_running`, ...).",
    "v1_tournaments_rounds_clock_reopen_create": "A round clock ended early by mistake: the clock runs again with "
                                                 "the seconds it still had, and the timed matches it finished (no "
                                                 "director's action decided them) are played again, their results "
                                                 "no longer counted until they finish. Answers the director's "
                                                 "action (`clock_reopened`, its `reason`, `params` `{round, "
                                                 "seconds, tables}`). 409 `clock_not_cut` unless the clock was ended "
                                                 "early and given no time since. Directors (organizers, its "
                                                 "directors) or staff.",
    "v1_tournaments_rounds_clock_keep_create": "A round clock ended early by mistake, kept: its results stand as "
                                               "they were and the offer to reopen is gone. Answers the director's "
                                               "action (`clock_kept`, `params` `{round, seconds}`). 409 "
                                               "`clock_not_cut` as reopening. Directors (organizers, its directors) "
                                               "or staff.",
    "v1_tournaments_standings_retrieve": f"The standings as last computed (a worker recomputes them after each "
                                         f"result): one row a team in rank order with its tiebreaks, and the club "
                                         f"standings. An individual event's rows have `player` (and "
                                         f"`player_detail`, `start_number`) instead of `team`, with the same "
                                         f"numbers; its clubs are ranked from their players. {_PUBLIC}",
    "v1_tasks_retrieve": "Follow a pairing task: `pending`, `running` (with progress), `succeeded` (with the "
                         "round's URL) or `failed` (with the reason). Visible to whoever sees the tournament.",
    "v1_matches_list": f"The matches, filterable by tournament (id or slug), round number, team, player and status, "
                       f"searchable by team and player names, each with its `players` by side and `bye`. {_PUBLIC}",
    "v1_matches_retrieve": "The match scoreboard: `tournament`, `ns` and `ew` as ids, each with its `_detail` "
                           "(the teams with their clubs and players; null in an individual event), the `players` "
                           "of each side in every event, `bye`, status, games won, and "
                           "per game every hand with its result and running totals, the next dealer and what the "
                           "next hand is worth. Cheap to poll: it answers an `ETag` and 304 to `If-None-Match`. "
                           + _PUBLIC,
    "v1_matches_hands_create": "Enter the next hand of the game in progress, as a summary (tricks and points) or "
                               "as the full card play. The rules engine checks it and computes every score; a "
                               "violation is a 400 with the rule's code. Send `Idempotency-Key` (a new one for every "
                               "hand) to make a retry safe: the same request again answers the stored hand; the "
                               "key with another request is a 422 (`idempotency_key_mismatch`), with a hand of "
                               "another match a 409 (`idempotency_key_reused`). Send `played_at` (when the hand "
                               "was played at the table) from an offline queue: a timed round's clock judges it "
                               "(409 `round_time_over` for a game started after the clock's end). Organizers, "
                               "scorekeepers or staff; 409 when the hand was already entered.",
    "v1_matches_confirm_create": "Confirm the match's entered result, as someone of the other side "
                                 "(docs/confirmation.md): name yourself (`player`) with your personal `code`, and "
                                 "the table's `table_code` (every match that has one: an individual event's, a team "
                                 "event's paired since 2026-11-30); or send a player's token. The "
                                 "phone (`X-Device`) or account that entered the result cannot confirm it (403 "
                                 "`result_own_entry`), nor anyone of the side that entered it when that side is known (403 "
                                 "`result_own_side`: the entering account's player, or the players who named "
                                 "themselves on the entering phone), another table's player "
                                 "(403 `not_at_this_table`) nor a wrong code (403 `personal_code_wrong`, 429 "
                                 "`too_many_codes` after a few per match and per phone). 409 `result_not_entered` "
                                 "unless the result is `entered`; 409 `confirmation_off`. Answers the scoreboard.",
    "v1_matches_dispute_create": "Dispute the match's entered result with a `reason`, as someone of the other side "
                                 "(proven as to confirm it): it becomes `disputed` until a director settles it. "
                                 "Refused as a confirmation is. Answers the scoreboard.",
    "v1_matches_settle_create": "A director's decision on a finished result (disputed, entered or confirmed) as it "
                                "stands, with a `reason`: `final`. Organizers, directors or staff (403 "
                                "`not_director`). Answers the scoreboard.",
    "v1_matches_confirm_on_paper_create": "A director confirms an entered or disputed result for the other side, "
                                          "on paper (the phones failed): `confirmed`, `result_mark` `paper`. "
                                          "Organizers, directors or staff. Answers the scoreboard.",
    "v1_matches_result_events_list": "Every step of the match's result, oldest first: entered, corrected, "
                                     "confirmed, disputed, settled, confirmed on paper or automatically, changed by "
                                     "a director, reopened; each with its account or player, side, phone, address, "
                                     "reason and the result at that step. Organizers, directors or staff.",
    "v1_matches_games_create": "Start the match's next game with the dealer drawn at the table (optional: the "
                               "first hand entered starts it too). Needed to record a Classic Malilla favourite "
                               "suit or a Mexican albur. Organizers, scorekeepers or staff.",
    "v1_hands_retrieve": f"A stored hand with its result and where the match stands. {_PUBLIC}",
    "v1_hands_partial_update": "Correct a hand: audited, and every later hand of the game is re-scored. "
                               "Organizers, scorekeepers or staff; 409 (`later_games_exist`) once a later game "
                               "of the match has begun.",
    "v1_hands_destroy": "Delete the last hand of a game (audited); 409 for any other hand. Organizers, "
                        "scorekeepers or staff.",
    "v1_push_tickets_create": "A ticket to open the push channel's stream once, within `PUSH_TICKET_SECONDS` (60 s): "
                              "bound to the token's user (without a token: the public tournaments) and to what it "
                              "follows, one tournament (id or slug) or every tournament the user may see. The token "
                              "itself never goes in a URL.",
    "v1_push_stream_retrieve": "The tournaments' events as Server-Sent Events: the webhooks' events (`PushEvent`), "
                               "each with an `id:`, of the tournaments the ticket follows and its user may see. A "
                               "reconnection with `Last-Event-ID` (or `?last_event_id=`) replays the events missed "
                               "within `PUSH_REPLAY_SECONDS` (600 s), or says `reset`; then `ready`. A comment line "
                               "every `PUSH_HEARTBEAT_SECONDS`. Served by the ASGI server (docs/api.md).",
    "v1_hands_history_list": f"A hand's audit history, oldest first: who changed what, when and why (also for a "
                             f"deleted hand). {_PUBLIC}",
}


def _public_read(view, method: str) -> bool:
    """Whether an operation needs no authentication (for public objects): a read open to all, or an open view."""
    perms = view.get_permissions()
    if not perms or any(isinstance(p, permissions.AllowAny) for p in perms):
        return True
    return method.upper() in permissions.SAFE_METHODS and all(
        isinstance(p, permissions.IsAuthenticatedOrReadOnly) for p in perms)


class AutoSchema(HttpSchemaMixin, ErrorsAutoSchema):
    """The schema class of the API: tags by subject, a hand-written description, public reads, no 500; the
    conditional GETs and response headers (``HttpSchemaMixin``)."""

    def get_tags(self) -> list[str]:
        path = self.path.split("/api/v1/", 1)[-1]
        return [next((tag for prefix, tag in TAG_OF_PREFIX if path.startswith(prefix)), "auth")]

    def get_description(self) -> str:
        return DESCRIPTIONS.get(self.get_operation_id()) or super().get_description()

    def get_auth(self):
        auths = [a for a in super().get_auth() if a]
        return ([{}] + auths) if _public_read(self.view, self.method) else auths

    def _should_add_error_response(self, responses: dict, status_code: str) -> bool:
        # A 500 is a bug, not an answer of the API: never advertised.
        return status_code != "500" and super()._should_add_error_response(responses, status_code)
