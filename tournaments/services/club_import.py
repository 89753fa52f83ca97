"""A club's players and teams imported from rows, all or nothing, and exported as rows: the import's service part.

The rows (read from a CSV or xlsx file by web/workspace/imports.py) are checked and saved by
django-import-export Resources, through the services of ``tournaments.services.clubs``, inside one
transaction that a preview always rolls back and an import rolls back on the first bad line.

Two kinds, told apart by their columns (an export is a valid import): players (``id``, ``name``,
``licence``, ``retired``) and teams (``id``, ``name``, ``player_1``, ``player_2``, ``retired``). A row with
an ``id`` changes that player or team of the club; a row without one changes the club's player with that
licence or name (the team with that name), else creates one.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets
from import_export.results import RowResult

from tournaments import refusals
from tournaments.models import Club, Player, Team
from tournaments.selectors.clubs import club_export_players, club_export_teams
from tournaments.services.clubs import player_create, player_update, team_create, team_update
from tournaments.services.errors import ServiceError

KINDS = ("players", "teams")
COLUMNS = {
    "players": ("id", "name", "licence", "retired"),
    "teams": ("id", "name", "player_1", "player_2", "retired"),
}
#: Cells a spreadsheet may turn into formulas get a leading apostrophe in a CSV export; an import drops it.
FORMULA_STARTS = ("=", "+", "-", "@")
YES = {"1", "yes", "y", "true", "x", "ja", "j", "oui", "o", "si", "sí", "s", "retired"}
NO = {"", "0", "no", "n", "false", "nee", "non", "active"}

def service_message(exc: ServiceError) -> str:
    """Return a service's refusal in the user's language."""
    return refusals.words(exc.code, exc.params)


def cell_text(value) -> str:
    """Return a cell as tidy text: spaces collapsed, a whole float without ``.0``, a date in ISO, no formula guard."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    text = " ".join(str(value).split())
    if text[:1] == "'" and text[1:2] in FORMULA_STARTS:
        text = text[1:]
    return text



class TextWidget(widgets.Widget):
    """Text with its spaces tidied; a CSV export guards cells a spreadsheet would read as a formula."""

    def __init__(self, *, csv_safe=False, blank_none=False):
        super().__init__(coerce_to_string=True)
        self.csv_safe, self.blank_none = csv_safe, blank_none

    def clean(self, value, row=None, **kwargs):
        text = cell_text(value)
        return None if self.blank_none and not text else text

    def render(self, value, obj=None, **kwargs):
        text = "" if value is None else str(value)
        if self.csv_safe and text[:1] in FORMULA_STARTS:
            text = "'" + text
        return text


class YesNoWidget(widgets.Widget):
    """``yes``/``no``, read in any of the site's languages (blank is no)."""

    def clean(self, value, row=None, **kwargs):
        text = cell_text(value).lower()
        if text in YES:
            return True
        if text in NO:
            return False
        raise ValueError(_("Write yes or no."))

    def render(self, value, obj=None, **kwargs):
        return "yes" if value else "no"


class ClubPlayerWidget(widgets.Widget):
    """A player of the club, written as their licence or name (the name, unless two players share it)."""

    def __init__(self, club: Club, *, csv_safe=False):
        super().__init__(coerce_to_string=True)
        self.club, self.csv_safe, self._shared = club, csv_safe, None

    def clean(self, value, row=None, **kwargs):
        text = cell_text(value)
        if not text:
            raise ValueError(_("A team needs two players."))
        players = list(Player.objects.filter(club=self.club, licence=text)[:1]) or list(
            Player.objects.filter(club=self.club, name__iexact=text)[:2])
        if not players:
            raise ValueError(_("The club has no player %(player)s: import the players first.") % {"player": text})
        if len(players) > 1:
            raise ValueError(_("The club has several players called %(player)s: write the licence.")
                             % {"player": text})
        return players[0]

    def render(self, value, obj=None, **kwargs):
        if value is None:
            return ""
        if self._shared is None:
            self._shared = set(Player.objects.filter(club=self.club).values("name").annotate(n=Count("pk"))
                               .filter(n__gt=1).values_list("name", flat=True))
        text = value.licence if value.name in self._shared and value.licence else value.name
        if self.csv_safe and text[:1] in FORMULA_STARTS:
            text = "'" + text
        return text


class _ClubResource(resources.ModelResource):
    """A club's rows: found by id, else by a natural key in the club; saved through the services."""

    id = fields.Field(attribute="id", column_name="id", readonly=True)
    name = fields.Field(attribute="name", column_name="name", widget=TextWidget())
    retired = fields.Field(attribute="retired", column_name="retired", widget=YesNoWidget())

    class Meta:  # the subclasses' Meta adds the model and its columns to these
        clean_model_instances = False
        skip_unchanged = True
        report_skipped = True
        skip_html_diff = True
        use_transactions = True

    def __init__(self, *, club: Club, user, csv_safe=False):
        self.club, self.user, self.csv_safe = club, user, csv_safe
        super().__init__()
        self.fields["name"].widget = TextWidget(csv_safe=self.csv_safe)

    def get_queryset(self):
        return self._meta.model.objects.filter(club=self.club)

    def init_instance(self, row=None):
        return self._meta.model(club=self.club)

    def find_by_natural_key(self, row):
        raise NotImplementedError

    def get_or_init_instance(self, instance_loader, row):
        raw_id = cell_text(row.get("id"))
        if raw_id:
            if not raw_id.isdigit():
                raise ValidationError({"id": _("An id is a whole number; leave it blank for a new one.")})
            instance = self.get_queryset().filter(pk=int(raw_id)).first()
            if instance is None:
                raise ValidationError({"id": _("The club has no such id: leave it blank for a new one.")})
            return instance, False
        instance = self.find_by_natural_key(row)
        if instance is not None:
            return instance, False
        return self.init_instance(row), True

    def do_instance_save(self, instance, is_create):
        try:
            saved = self.save_through_service(instance, is_create)
        except ServiceError as exc:
            raise ValidationError({exc.field or NON_FIELD_ERRORS: service_message(exc)}) from None
        instance.pk = saved.pk


class PlayerResource(_ClubResource):
    licence = fields.Field(attribute="licence", column_name="licence", widget=TextWidget(blank_none=True))

    class Meta:
        model = Player
        fields = COLUMNS["players"]
        import_order = export_order = COLUMNS["players"]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fields["licence"].widget = TextWidget(blank_none=True, csv_safe=self.csv_safe)

    def find_by_natural_key(self, row):
        licence = "".join(cell_text(row.get("licence")).split())
        if licence:
            player = Player.objects.filter(licence=licence).first()
            if player is not None and player.club_id != self.club.pk:
                raise ValidationError({"licence": _("A player of another club has this licence.")})
            if player is not None:
                return player
        name = cell_text(row.get("name"))
        if not name:
            return None
        # A row with a licence nobody has may give it to a namesake who has none; a row without one names anyone.
        candidates = self.get_queryset().filter(name__iexact=name)
        if licence:
            candidates = candidates.filter(licence__isnull=True)
        found = list(candidates[:2])
        if len(found) > 1:
            raise ValidationError({"name": _("The club has several players with this name: give the id.")})
        return found[0] if found else None

    def save_through_service(self, player, is_create):
        values = {"name": player.name, "licence": player.licence, "retired": player.retired}
        if is_create:
            return player_create(club=self.club, user=self.user, **values)
        return player_update(player=player, user=self.user, **values)


class TeamResource(_ClubResource):
    player_1 = fields.Field(attribute="player_1", column_name="player_1")
    player_2 = fields.Field(attribute="player_2", column_name="player_2")

    class Meta:
        model = Team
        fields = COLUMNS["teams"]
        import_order = export_order = COLUMNS["teams"]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        for column in ("player_1", "player_2"):
            self.fields[column].widget = ClubPlayerWidget(self.club, csv_safe=self.csv_safe)

    def get_queryset(self):
        return super().get_queryset().select_related("player_1", "player_2")

    def find_by_natural_key(self, row):
        name = cell_text(row.get("name"))
        return self.get_queryset().filter(name__iexact=name).first() if name else None

    def save_through_service(self, team, is_create):
        values = {"name": team.name, "player_1": team.player_1, "player_2": team.player_2, "retired": team.retired}
        if is_create:
            return team_create(club=self.club, user=self.user, **values)
        return team_update(team=team, user=self.user, **values)


RESOURCES = {"players": PlayerResource, "teams": TeamResource}


@dataclass
class PreviewRow:
    line: int
    action: str  # new, update, skip, invalid
    values: dict
    errors: list[tuple[str, str]]
    was: dict = field(default_factory=dict)  # column: the stored value a changed row replaces


@dataclass
class Preview:
    table: Any  # the rows as read (web/workspace/imports.Table): kind, filename, headers, rows, lines
    rows: list[PreviewRow]

    def count(self, action: str) -> int:
        return sum(1 for r in self.rows if r.action == action)

    @property
    def created(self) -> int:
        return self.count("new")

    @property
    def updated(self) -> int:
        return self.count("update")

    @property
    def unchanged(self) -> int:
        return self.count("skip")

    @property
    def error_rows(self) -> list[PreviewRow]:
        return [r for r in self.rows if r.errors]

    @property
    def ok(self) -> bool:
        return not self.error_rows


def _errors_of(row_result) -> list[tuple[str, str]]:
    if row_result.import_type == RowResult.IMPORT_TYPE_INVALID:
        errors = []
        for key, messages in row_result.validation_error.message_dict.items():
            column = "" if key == NON_FIELD_ERRORS else key
            errors.extend((column, str(m)) for m in messages)
        return errors
    if row_result.import_type == RowResult.IMPORT_TYPE_ERROR or row_result.errors:
        return [("", _("This line conflicts with stored data (a duplicate?); nothing was stored."))]
    return []


def _changes(resource, row_result, headers) -> dict:
    """The columns an update changes, each with the value stored before."""
    original, instance = getattr(row_result, "original", None), getattr(row_result, "instance", None)
    if row_result.import_type != RowResult.IMPORT_TYPE_UPDATE or original is None or instance is None:
        return {}
    was = {}
    for column in headers:
        if column == "id" or column not in resource.fields:
            continue
        before, after = resource.fields[column].export(original), resource.fields[column].export(instance)
        if before != after:
            was[column] = before
    return was


def club_rows_import(*, club: Club, user, table, commit: bool) -> Preview:
    """Check (``commit=False``) or import a table of players or teams, all or nothing (a bad line: nothing stored).

    ``table`` has the rows as read from a file: ``kind`` ("players" or "teams"), ``headers`` (columns of
    ``COLUMNS[kind]``), ``rows`` (cells as text) and each row's ``lines`` in the file.
    """
    resource = RESOURCES[table.kind](club=club, user=user)
    dataset = tablib.Dataset(*[tuple(r) for r in table.rows], headers=table.headers)
    with transaction.atomic():
        result = resource.import_data(dataset, dry_run=not commit, use_transactions=True, raise_errors=False,
                                      rollback_on_validation_errors=True, retain_instance_in_row_result=True)
        rows = []
        for index, row_result in enumerate(result.rows):
            values = dict(zip(table.headers, table.rows[index]))
            action = row_result.import_type
            errors = _errors_of(row_result)
            rows.append(PreviewRow(line=table.lines[index], action="invalid" if errors else action,
                                   values=values, errors=errors, was=_changes(resource, row_result, table.headers)))
        preview = Preview(table=table, rows=rows)
        if result.base_errors:
            preview.rows.insert(0, PreviewRow(line=1, action="invalid", values={},
                                              errors=[("", _("The file could not be imported."))]))
        if not commit or not preview.ok:
            transaction.set_rollback(True)
    return preview


def club_export_dataset(*, club: Club, kind: str, csv_safe: bool) -> tablib.Dataset:
    """Return every player or team of a club (retired ones included) as a table in the import's format."""
    resource = RESOURCES[kind](club=club, user=None, csv_safe=csv_safe)
    queryset = club_export_players(club_id=club.pk) if kind == "players" else club_export_teams(club_id=club.pk)
    return resource.export(queryset)
