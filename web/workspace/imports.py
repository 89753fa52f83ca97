"""A club's players and teams as a file: read a CSV or xlsx upload into a table, write an export as a file.

Two formats, one per kind, told apart by their columns (an export is a valid import, so export → edit →
import round-trips):

- players: ``id``, ``name``, ``licence``, ``retired``
- teams: ``id``, ``name``, ``player_1``, ``player_2``, ``retired``

A row with an ``id`` changes that player or team of the club; a row without one changes the club's player
with that licence or name (the team with that name), else creates one. A team names its players by licence
or name among the club's players, so players are imported first, then teams.

The rows are checked and saved by ``tournaments.services.club_import`` (django-import-export Resources
saving through the services of ``tournaments.services.clubs``, inside one transaction that a preview
always rolls back and an import rolls back on the first bad line). Between preview and confirm the parsed
rows travel in a signed, compressed hidden field: nothing is kept on the server.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext as _

from tournaments.models import Club
from tournaments.services.club_import import COLUMNS, cell_text, club_export_dataset

REQUIRED = {"players": ("name",), "teams": ("name", "player_1", "player_2")}
#: Headers people write for our columns (compared lower-cased, spaces and dashes as underscores).
ALIASES = {"license": "licence", "licence_number": "licence", "player1": "player_1", "player2": "player_2",
           "team": "name", "player": "name"}
SALT = "ws.club-import"
#: How long a preview may wait for its confirmation.
PREVIEW_MAX_AGE = 3600


def max_bytes() -> int:
    """The largest file an import takes (setting ``WS_IMPORT_MAX_BYTES``)."""
    return getattr(settings, "WS_IMPORT_MAX_BYTES", 1_000_000)


def max_rows() -> int:
    """The most rows an import takes (setting ``WS_IMPORT_MAX_ROWS``)."""
    return getattr(settings, "WS_IMPORT_MAX_ROWS", 1000)


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


def _header(value) -> str:
    key = "_".join(cell_text(value).lower().replace("-", " ").split())
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
        cells = [cell_text(c) for c in raw]
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


# --------------------------------------------------------------------------- export


def export_csv(*, club: Club, kind: str) -> bytes:
    """A club's players or teams as UTF-8 CSV (with a byte-order mark, so spreadsheets read the accents)."""
    return ("\ufeff" + club_export_dataset(club=club, kind=kind, csv_safe=True).csv).encode("utf-8")


def export_xlsx(*, club: Club, kind: str) -> bytes:
    """A club's players or teams as an xlsx spreadsheet; every cell is text, never a formula."""
    from openpyxl import Workbook
    from openpyxl.cell.cell import TYPE_STRING

    dataset = club_export_dataset(club=club, kind=kind, csv_safe=False)
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
