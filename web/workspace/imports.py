"""A club's players and teams as a file: read a CSV or xlsx upload, preview it, import it whole or not at all, export.

Two formats, one per kind, told apart by their columns (an export is a valid import, so export → edit →
import round-trips):

- players: ``id``, ``name``, ``licence``, ``retired``
- teams: ``id``, ``name``, ``player_1``, ``player_2``, ``retired``

A row with an ``id`` changes that player or team of the club; a row without one changes the club's player
with that licence or name (the team with that name), else creates one. A team names its players by licence
or name among the club's players, so players are imported first, then teams.

Parsing and validation are django-import-export Resources (the rows are checked, and saved through the
services of ``tournaments.services.clubs``, inside one transaction that a preview always rolls back and an
import rolls back on the first bad line). Between preview and confirm the parsed rows travel in a signed,
compressed hidden field: nothing is kept on the server.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass, field

import tablib
from django.conf import settings
from django.core import signing
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets
from import_export.results import RowResult

from tournaments import refusals
from tournaments.models import Club, Player, Team
from tournaments.selectors_clubs import club_export_players, club_export_teams
from tournaments.services.clubs import player_create, player_update, team_create, team_update
from tournaments.services.errors import ServiceError

KINDS = ("players", "teams")
COLUMNS = {
    "players": ("id", "name", "licence", "retired"),
    "teams": ("id", "name", "player_1", "player_2", "retired"),
}
REQUIRED = {"players": ("name",), "teams": ("name", "player_1", "player_2")}
#: Headers people write for our columns (compared lower-cased, spaces and dashes as underscores).
ALIASES = {"license": "licence", "licence_number": "licence", "player1": "player_1", "player2": "player_2",
           "team": "name", "player": "name"}
#: Cells a spreadsheet may turn into formulas get a leading apostrophe in a CSV export; an import drops it.
FORMULA_STARTS = ("=", "+", "-", "@")
YES = {"1", "yes", "y", "true", "x", "ja", "j", "oui", "o", "si", "sí", "s", "retired"}
NO = {"", "0", "no", "n", "false", "nee", "non", "active"}
SALT = "ws.club-import"
#: How long a preview may wait for its confirmation.
PREVIEW_MAX_AGE = 3600


def max_bytes() -> int:
    """The largest file an import takes (setting ``WS_IMPORT_MAX_BYTES``)."""
    return getattr(settings, "WS_IMPORT_MAX_BYTES", 1_000_000)


def max_rows() -> int:
    """The most rows an import takes (setting ``WS_IMPORT_MAX_ROWS``)."""
    return getattr(settings, "WS_IMPORT_MAX_ROWS", 1000)


def service_message(exc: ServiceError) -> str:
    """A service's refusal in the user's language."""
    return refusals.words(exc.code, exc.params)


class ImportFileError(Exception):
    """A file that cannot be read as a table of players or teams; the message is in the user's language."""


# --------------------------------------------------------------------------- reading a file


@dataclass
class Table:
    """The rows of an uploaded file: normalized headers, cells as text, each row's line in the file."""

    kind: str
    filename: str
    headers: list[str]
    rows: list[list[str]]
    lines: list[int]
    ignored: list[str] = field(default_factory=list)

    def sign(self, *, club_id: int, user_id: int) -> str:
        """Sign the table for the confirm form, bound to the club and the user."""
        data = {"k": self.kind, "f": self.filename, "h": self.headers, "r": self.rows, "l": self.lines,
                "i": self.ignored}
        return signing.dumps(data, salt=f"{SALT}:{club_id}:{user_id}", compress=True)

    @classmethod
    def unsign(cls, token: str, *, club_id: int, user_id: int) -> Table:
        """Read back a signed table; raises ``ImportFileError`` when it was altered, is for another club or expired."""
        try:
            data = signing.loads(token, salt=f"{SALT}:{club_id}:{user_id}", max_age=PREVIEW_MAX_AGE)
        except signing.SignatureExpired:
            raise ImportFileError(_("This preview has expired: upload the file again.")) from None
        except signing.BadSignature:
            raise ImportFileError(_("This preview cannot be read back: upload the file again.")) from None
        return cls(kind=data["k"], filename=data["f"], headers=data["h"], rows=data["r"], lines=data["l"],
                   ignored=data.get("i", []))


def _cell(value) -> str:
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


def _header(value) -> str:
    key = "_".join(_cell(value).lower().replace("-", " ").split())
    return ALIASES.get(key, key)


def _csv_rows(data: bytes):
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    if "\x00" in text:
        raise ImportFileError(_("This file is not a CSV file."))
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    line = 1
    try:
        for row in reader:
            yield line, row
            line = reader.line_num + 1
    except csv.Error as exc:
        raise ImportFileError(_("Line %(line)s cannot be read: %(error)s") % {"line": line, "error": exc}) from None


def _xlsx_rows(data: bytes):
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds on a file that is no workbook
        raise ImportFileError(_("This file is not an xlsx spreadsheet.")) from None
    try:
        sheet = book.worksheets[0]
        for line, row in enumerate(sheet.iter_rows(values_only=True, max_col=len(COLUMNS["teams"]) + 10), 1):
            yield line, row
    finally:
        book.close()


def read_upload(upload) -> Table:
    """Read an uploaded CSV or xlsx file into a ``Table``; raises ``ImportFileError`` saying what is wrong."""
    name = upload.name or ""
    if upload.size > max_bytes():
        raise ImportFileError(_("The file is too large: at most %(size)s kB.") % {"size": max_bytes() // 1000})
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if ext not in ("csv", "txt", "xlsx"):
        raise ImportFileError(_("Upload a CSV file or an xlsx spreadsheet."))
    data = upload.read(max_bytes() + 1)
    if len(data) > max_bytes():
        raise ImportFileError(_("The file is too large: at most %(size)s kB.") % {"size": max_bytes() // 1000})
    source = _xlsx_rows(data) if ext == "xlsx" else _csv_rows(data)
    headers, rows, lines = None, [], []
    for line, raw in source:
        if line > 10 * max_rows() + 100:  # blank rows count too: a sheet of a million empty rows is refused
            raise ImportFileError(_("The file has too many rows: at most %(n)s.") % {"n": max_rows()})
        cells = [_cell(c) for c in raw]
        if not any(cells):
            continue
        if headers is None:
            headers = [_header(c) for c in cells]
            continue
        if len(rows) >= max_rows():
            raise ImportFileError(_("The file has too many rows: at most %(n)s.") % {"n": max_rows()})
        rows.append(cells)
        lines.append(line)
    if headers is None:
        raise ImportFileError(_("The file is empty."))
    return _table(name[-120:], headers, rows, lines)


def _table(filename: str, headers: list[str], rows: list[list[str]], lines: list[int]) -> Table:
    kind = "teams" if "player_1" in headers or "player_2" in headers else "players"
    seen = set()
    for header in headers:
        if header and header in seen and header in COLUMNS[kind]:
            raise ImportFileError(_("The column %(column)s appears twice.") % {"column": header})
        seen.add(header)
    missing = [c for c in REQUIRED[kind] if c not in headers]
    if missing:
        raise ImportFileError(_("The first row must name the columns; missing: %(columns)s.")
                              % {"columns": ", ".join(missing)})
    keep = [i for i, h in enumerate(headers) if h in COLUMNS[kind]]
    ignored = [h for h in headers if h and h not in COLUMNS[kind]]
    width = len(headers)
    rows = [[(row + [""] * width)[i] for i in keep] for row in rows]
    if not rows:
        raise ImportFileError(_("The file has no rows below its column names."))
    return Table(kind=kind, filename=filename, headers=[headers[i] for i in keep], rows=rows, lines=lines,
                 ignored=ignored)


# --------------------------------------------------------------------------- widgets and resources


class TextWidget(widgets.Widget):
    """Text with its spaces tidied; a CSV export guards cells a spreadsheet would read as a formula."""

    def __init__(self, *, csv_safe=False, blank_none=False):
        super().__init__(coerce_to_string=True)
        self.csv_safe, self.blank_none = csv_safe, blank_none

    def clean(self, value, row=None, **kwargs):
        text = _cell(value)
        return None if self.blank_none and not text else text

    def render(self, value, obj=None, **kwargs):
        text = "" if value is None else str(value)
        if self.csv_safe and text[:1] in FORMULA_STARTS:
            text = "'" + text
        return text


class YesNoWidget(widgets.Widget):
    """``yes``/``no``, read in any of the site's languages (blank is no)."""

    def clean(self, value, row=None, **kwargs):
        text = _cell(value).lower()
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
        text = _cell(value)
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
        raw_id = _cell(row.get("id"))
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
        licence = "".join(_cell(row.get("licence")).split())
        if licence:
            player = Player.objects.filter(licence=licence).first()
            if player is not None and player.club_id != self.club.pk:
                raise ValidationError({"licence": _("A player of another club has this licence.")})
            if player is not None:
                return player
        name = _cell(row.get("name"))
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
        name = _cell(row.get("name"))
        return self.get_queryset().filter(name__iexact=name).first() if name else None

    def save_through_service(self, team, is_create):
        values = {"name": team.name, "player_1": team.player_1, "player_2": team.player_2, "retired": team.retired}
        if is_create:
            return team_create(club=self.club, user=self.user, **values)
        return team_update(team=team, user=self.user, **values)


RESOURCES = {"players": PlayerResource, "teams": TeamResource}


# --------------------------------------------------------------------------- preview and import


@dataclass
class PreviewRow:
    line: int
    action: str  # new, update, skip, invalid
    values: dict
    errors: list[tuple[str, str]]
    was: dict = field(default_factory=dict)  # column: the stored value a changed row replaces


@dataclass
class Preview:
    table: Table
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


def run_import(*, club: Club, user, table: Table, commit: bool) -> Preview:
    """Check (``commit=False``) or import a table, all or nothing: any bad line and nothing is stored."""
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


# --------------------------------------------------------------------------- export


def export_dataset(*, club: Club, kind: str, csv_safe: bool) -> tablib.Dataset:
    """Every player or team of a club (retired ones included) as a table in the import's format."""
    resource = RESOURCES[kind](club=club, user=None, csv_safe=csv_safe)
    queryset = club_export_players(club_id=club.pk) if kind == "players" else club_export_teams(club_id=club.pk)
    return resource.export(queryset)


def export_csv(*, club: Club, kind: str) -> bytes:
    """A club's players or teams as UTF-8 CSV (with a byte-order mark, so spreadsheets read the accents)."""
    return ("\ufeff" + export_dataset(club=club, kind=kind, csv_safe=True).csv).encode("utf-8")


def export_xlsx(*, club: Club, kind: str) -> bytes:
    """A club's players or teams as an xlsx spreadsheet; every cell is text, never a formula."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import TYPE_STRING

    dataset = export_dataset(club=club, kind=kind, csv_safe=False)
    book = Workbook(write_only=False)
    sheet = book.active
    sheet.title = kind
    sheet.append(list(dataset.headers))
    for values in dataset:
        sheet.append([None] * len(values))
        for column, value in enumerate(values, 1):
            cell = sheet.cell(row=sheet.max_row, column=column)
            if column == 1 and value not in ("", None):
                cell.value = int(value)
            else:
                cell.value = value
                cell.data_type = TYPE_STRING
    for column, width in zip("ABCDE", (8, 30, 30, 30, 10)):
        sheet.column_dimensions[column].width = width
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
