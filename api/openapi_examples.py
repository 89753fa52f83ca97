"""Hand-written examples of the schema (issue 13): real requests and the engine's real answers."""

from drf_spectacular.utils import OpenApiExample

BELGIAN_HAND = {"dealer": "N", "trump": "H", "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}}
SPANISH_HAND = {"dealer": "E", "turned_card": "12O", "tricks": {"ns": 7, "ew": 5}, "points": {"ns": 47, "ew": 25}}

EXAMPLE_BELGIAN_HAND = OpenApiExample(
    "A Belgian hand", request_only=True,
    summary="Belgian Manille: hearts trump, 5 tricks to 3, 37 card points to 23",
    description="North dealt and chose hearts; NS took 37 of the 60 points, so it scores 37 - 30 = 7.",
    value=BELGIAN_HAND,
)
EXAMPLE_BELGIAN_SCORE_REQUEST = OpenApiExample(
    "A Belgian hand", request_only=True,
    summary="Belgian Manille at 81-61: hearts trump, 37 card points to 23",
    value={**BELGIAN_HAND, "state": {"totals": {"ns": 81, "ew": 61}}},
)
EXAMPLE_SPANISH_HAND = OpenApiExample(
    "A Spanish hand with its turned card", request_only=True,
    summary="Spanish Manilla: the dealer turned the king of coins (12O), which makes coins trump",
    description="The turned card gives the trump suit, and its point value (a king: 3) goes to the dealer's side "
                "(EW, as East dealt) unless it would reach the target (then it is held back until the hand is "
                "scored).",
    value=SPANISH_HAND,
)
EXAMPLE_DEALS_SCORE_REQUEST = OpenApiExample(
    "The last deal of a game of 16 deals", request_only=True,
    summary="Belgian Manille for 16 deals, as in Roeselare: the 16th deal at 81-87 decides the game",
    description="With house option deals the deal count alone ends the game (rules.md, \"A game of a fixed number "
                "of deals\"): send each answer's state back with the next hand; the answer's state tells the "
                "deals played and left, and the winner (\"draw\" when level, unless tiebreak_deals is set).",
    value={**BELGIAN_HAND, "dealer": "W", "options": {"deals": 16},
           "state": {"totals": {"ns": 81, "ew": 87}, "previous_dealer": "S", "deals_played": 15}},
)
EXAMPLE_BELGIAN_SCORE = OpenApiExample(
    "The Belgian hand scored", response_only=True, status_codes=["200"],
    value={"tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}, "multiplier": 1, "all_tricks": False,
           "score": {"ns": 7, "ew": 0}, "bonus": None, "totals": {"ns": 88, "ew": 61}, "game_winner": None,
           "tie_pending": False, "next_dealer": "E", "next_multiplier": 1, "labels": [],
           "state": {"totals": {"ns": 88, "ew": 61}, "tie_pending": False, "tie_multiplier": 1,
                     "previous_dealer": "N", "favourite": None, "deals_played": 1, "winner": None,
                     "deals_left": None, "ended_on_deals": False, "tiebreak": False}},
)
EXAMPLE_HAND_ENTERED = OpenApiExample(
    "The Belgian hand stored", response_only=True, status_codes=["201"],
    value={"id": 812, "number": 7, "dealer": "N", "trump": "H", "blind": False, "doublings": 0,
           "tricks": {"ns": 5, "ew": 3}, "points": {"ns": 37, "ew": 23}, "thrown_in": False, "sheet_score": None,
           "multiplier": 1, "all_tricks": False, "score": {"ns": 7, "ew": 0}, "bonus": None,
           "totals": {"ns": 88, "ew": 61}, "game_winner": None, "labels": [], "game": 2, "game_id": 311,
           "match": {"id": 57, "games_won": {"ns": 1, "ew": 0}, "winner": None, "status": "playing",
                     "next_dealer": "E", "tie_pending": False}},
)
EXAMPLE_RULE_REFUSAL = OpenApiExample(
    "A rule refusal", response_only=True, status_codes=["400"],
    summary="The points do not add up to the variant's hand total",
    value={"type": "validation_error",
           "errors": [{"code": "points_total", "attr": "points",
                       "detail": "The points of the two teams must add up to 60; these add up to 59."}]},
)
EXAMPLE_STANDINGS = OpenApiExample(
    "Standings after two rounds", response_only=True, status_codes=["200"],
    value={"computed_at": "2026-11-21T15:42:07.118203+01:00", "count": 1, "next": None, "previous": None,
           "rows": [{"rank": 1, "team": 5, "played": 2, "won": 2, "drawn": 0, "lost": 0, "match_points": 4,
                     "games_won": 4, "games_lost": 1, "points_for": 468, "points_against": 301,
                     "forfeits_won": 0, "forfeits_lost": 0, "withdrawn": False,
                     "tiebreaks": {"match_points": 4, "games_won": 4, "points_diff": 167, "buchholz": 2,
                                   "direct_encounter": 0},
                     "team_detail": {"id": 5, "name": "De Manilles", "club": {"id": 3, "name": "De Zwarte Kat"}}}],
           "clubs": [{"club": 3, "club_detail": {"id": 3, "name": "De Zwarte Kat"}, "club_name": "De Zwarte Kat",
                      "rank": 1, "teams": 1, "percentage": 100.0}]},
)
EXAMPLE_TOURNAMENT = OpenApiExample(
    "Gentse Beker", request_only=True,
    summary="The least a client sends: a Swiss of 7 rounds, best of 3",
    value={"name": "Gentse Beker", "variant": "belgian-manille", "format": "swiss", "rounds": 7, "best_of": 3,
           "options": {}, "public": True},
)
EXAMPLE_TOURNAMENT_INDIVIDUAL = OpenApiExample(
    "An individual kaarting", request_only=True,
    summary="Players entered alone at tables of four, three timed rounds of 30 minutes",
    value={"name": "Kortrijkse Kaarting", "variant": "belgian-manille", "entry": "individual", "format": "tables",
           "rounds": 3, "match_length": "timed", "minutes": 30, "at_time": "finish", "sit_out_score": "mean",
           "withdrawal": "sit_out", "public": True},
)
EXAMPLE_ENTRY_TEAM = OpenApiExample("A team", request_only=True, summary="A team event: the team's id",
                                    value={"team": 5})
EXAMPLE_ENTRY_PLAYER = OpenApiExample(
    "A player", request_only=True, summary="An individual event: the player's id (the next start number)",
    value={"player": 11})
