"""Make a round's draw again from the inputs kept with it and say whether it is the draw in use.

    manage.py draw_check <tournament slug or id> <round number> [--json]

The same check as the standalone script of the pure draw module, from the database: the inputs (entries in
start-number order, constraints, earlier rounds, seed, algorithm version) are the round's kept ``RoundDraw``.
Exit status 0 when the draw is the same, 1 when it differs.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Round, Tournament
from tournaments.services.draws import round_draw_check
from tournaments.services.errors import ServiceError


class Command(BaseCommand):
    help = "Make a round's draw again from its kept inputs and compare it with the draw in use."

    def add_arguments(self, parser):
        parser.add_argument("tournament", help="The tournament's slug or id.")
        parser.add_argument("round", type=int, help="The round's number.")
        parser.add_argument("--json", action="store_true", help="Print the draw made again as JSON.")

    def handle(self, *args, **options):
        key = options["tournament"]
        tournament = Tournament.objects.filter(**({"pk": int(key)} if key.isdigit() else {"slug": key})).first()
        if tournament is None:
            raise CommandError(f"No tournament {key!r}.")
        rnd = Round.objects.filter(tournament=tournament, number=options["round"]).first()
        if rnd is None:
            raise CommandError(f"{tournament} has no round {options['round']}.")
        try:
            checked = round_draw_check(rnd)
        except ServiceError as exc:
            raise CommandError(f"Round {rnd.number} has no kept draw ({exc.code}).") from exc
        if options["json"]:
            self.stdout.write(json.dumps(checked["result"], indent=2, sort_keys=True))
        verdict = "the same draw" if checked["same"] else "A DIFFERENT DRAW"
        self.stdout.write(f"{tournament} round {rnd.number}: seed {checked['seed']}, version {checked['version']}: "
                          f"{verdict}.")
        if not checked["same"]:
            raise SystemExit(1)
