"""Errors the services raise besides the rules engine's ``scoring.RuleViolation``.

Each carries a stable ``code``, the ``field`` it concerns and ``params`` (plain values: numbers, names of
teams and players...), never words: ``tournaments.refusals`` writes them in the reader's language.
"""

from collections.abc import Mapping
from typing import Any


class ServiceError(Exception):
    """A refusal with a stable machine-readable code, the field it concerns and the values it names."""

    status = 400

    def __init__(self, code: str, field: str | None = None, params: Mapping[str, Any] | None = None):
        self.code = code
        self.field = field
        self.params = dict(params or {})
        shown = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        super().__init__(f"{code}({field or '-'}{': ' + shown if shown else ''})")

    @property
    def errors(self) -> list[tuple[str, str | None, dict]]:
        """Return the refusal's items as ``(code, field, params)``: one here, several in ``InvalidFields``."""
        return [(self.code, self.field, self.params)]


class Conflict(ServiceError):
    """The request conflicts with the current state (HTTP 409): a hand already entered, a race lost."""

    status = 409


class Forbidden(ServiceError):
    """A request this person may not make (HTTP 403): a confirmation of their own result, of another table's, with
    a wrong code."""

    status = 403


class TooMany(ServiceError):
    """Too many tries in too short a time (HTTP 429): wrong personal codes."""

    status = 429


class IdempotencyKeyMismatch(ServiceError):
    """An Idempotency-Key already stored with another request (HTTP 422, as the IETF Idempotency-Key draft
    answers): not a retry, so neither replayed nor stored. Its code is ``idempotency_key_mismatch``."""

    status = 422

    def __init__(self):
        super().__init__("idempotency_key_mismatch")


class InvalidFields(ServiceError):
    """Values that make no sense, one error or more, each with its code, field and params (HTTP 400).

    The first item is the error's own code, field and params.
    """

    def __init__(self, errors: list[tuple[str, str | None, Mapping[str, Any]]]):
        code, field, params = errors[0]
        super().__init__(code, field, params)
        self._errors = [(c, f, dict(p or {})) for c, f, p in errors]

    @property
    def errors(self) -> list[tuple[str, str | None, dict]]:
        return list(self._errors)

    @classmethod
    def from_validation_error(cls, exc) -> "InvalidFields":
        """Build one from a Django ``ValidationError`` (a model's ``clean``): each error's code, field and params."""
        found = []
        for field, errors in exc.error_dict.items() if hasattr(exc, "error_dict") else [(None, exc.error_list)]:
            for error in errors:
                params = {k: v if isinstance(v, (int, float, bool, type(None), list, tuple)) else str(v)
                          for k, v in (error.params or {}).items()}
                found.append((error.code or "invalid", None if field == "__all__" else field, params))
        return cls(found)
