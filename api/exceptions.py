"""One error shape for the whole API, built on drf-standardized-errors.

The library formats every DRF exception as ``{"type", "errors": [{"code", "attr", "detail"}]}``.
This module plugs in at its documented customisation points (``EXCEPTION_HANDLER_CLASS`` and
``EXCEPTION_FORMATTER_CLASS``) to translate what the domain raises:

- ``scoring.RuleViolation``: 400 ``validation_error``, one error per violation (code, field and its words);
- ``tournaments.services.errors.Conflict``: 409 ``client_error`` with the conflict's code;
- ``tournaments.services.errors.IdempotencyKeyMismatch``: 422 ``client_error`` ``idempotency_key_mismatch``;
- a ``ServiceError`` of status 403 or 429 (a confirmation by the wrong person, too many wrong codes): that
  status, ``client_error`` with its code;
- any other ``ServiceError``: 400 ``validation_error`` (``InvalidFields``: one error per field);
- a protected/restricted delete or an integrity race in the database: 409 ``client_error``;
- a database fault (the server away, the connection ended, no connection to be had): 503
  ``server_error`` ``database_unavailable`` with ``Retry-After`` (``config.database_unavailable``);
- hostile input: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` 413 ``too_large``, JSON nested too
  deeply for the parser (``RecursionError``) 400 ``parse_error``. Never a 500 for bad input.

Every ``detail`` is written by ``tournaments.refusals`` from the code and its params, in the request's
language (LocaleMiddleware: ``Accept-Language``, English without it); ``code`` and ``attr`` never change.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import DataError, IntegrityError
from django.db.models import ProtectedError, RestrictedError
from drf_standardized_errors.formatter import ExceptionFormatter as BaseExceptionFormatter
from drf_standardized_errors.handler import ExceptionHandler as BaseExceptionHandler
from drf_standardized_errors.types import Error
from rest_framework import exceptions, status
from rest_framework.exceptions import ErrorDetail

from config.database_unavailable import DATABASE_FAULTS, RETRY_AFTER_SECONDS, database_unavailable_message
from tournaments import refusals
from tournaments.services.errors import ServiceError

from .engine import RuleViolation


class RuleValidationError(exceptions.ValidationError):
    """A 400 carrying the rules engine's violations (or a service's errors), each with its own code and field."""

    def __init__(self, errors: list[dict]):
        self.refusals = list(errors)  # {code, attr, detail} each (tournaments.refusals.render)
        super().__init__([ErrorDetail(e["detail"], code=e["code"]) for e in self.refusals])


class ConflictError(exceptions.APIException):
    """409: the request conflicts with the current state (a hand already entered, a round already paired)."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The request conflicts with the current state of the resource."
    default_code = "conflict"


class DatabaseUnavailable(exceptions.APIException):
    """503 with Retry-After: the database could not be reached or broke the statement off; nothing was stored."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = "The database is unavailable for a moment."
    default_code = "database_unavailable"
    wait = RETRY_AFTER_SECONDS  # the handler's Retry-After


class UnprocessableError(exceptions.APIException):
    """422: the request is well-formed but cannot be processed (an Idempotency-Key used for another request)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = "The request cannot be processed."
    default_code = "unprocessable"


class PayloadTooLarge(exceptions.APIException):
    """413: the request body is larger than the service accepts."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "too_large"


def conflict(code: str, message: str) -> ConflictError:
    """Return a 409 with its own code."""
    return ConflictError(ErrorDetail(message, code=code))


class ExceptionHandler(BaseExceptionHandler):
    """Convert domain exceptions to DRF ones before the library formats them."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, RequestDataTooBig):
            from django.conf import settings

            return PayloadTooLarge(ErrorDetail(refusals.words(
                "too_large", {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}), code="too_large"))
        if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
            return exceptions.ParseError(ErrorDetail(refusals.words("too_many_fields"), code="too_many_fields"))
        if isinstance(exc, RecursionError):
            return exceptions.ParseError(ErrorDetail(refusals.words("parse_error", {"reason": "nested"}),
                                                     code="parse_error"))
        if isinstance(exc, exceptions.ParseError) and getattr(exc.detail, "code", None) == "parse_error":
            # The parser's own words ("JSON parse error - Expecting ',' delimiter: line 1 column 91"), in English
            # whatever the request's language: the refusal's words instead.
            return exceptions.ParseError(ErrorDetail(refusals.words("parse_error"), code="parse_error"))
        if isinstance(exc, RuleViolation):
            return RuleValidationError(refusals.render(exc, names=self._names()))
        if isinstance(exc, ServiceError):
            found = refusals.render(exc, names=self._names())  # InvalidFields: one error per field
            if exc.status == 409:  # a Conflict
                return conflict(found[0]["code"], found[0]["detail"])
            if exc.status == 422:  # an IdempotencyKeyMismatch
                return UnprocessableError(ErrorDetail(found[0]["detail"], code=found[0]["code"]))
            if exc.status in (403, 429):  # not theirs to do (a confirmation's), too many wrong codes
                error = exceptions.PermissionDenied if exc.status == 403 else exceptions.Throttled
                refused = error(detail=ErrorDetail(found[0]["detail"], code=found[0]["code"]))
                refused.detail = ErrorDetail(found[0]["detail"], code=found[0]["code"])
                return refused
            return RuleValidationError(found)
        if isinstance(exc, (ProtectedError, RestrictedError)):
            return conflict("protected", refusals.words("protected"))
        if isinstance(exc, IntegrityError):
            return conflict("integrity", refusals.words("integrity"))
        if isinstance(exc, DATABASE_FAULTS):
            return DatabaseUnavailable(ErrorDetail(database_unavailable_message(), code="database_unavailable"))
        if isinstance(exc, DataError):
            return exceptions.ValidationError(ErrorDetail(refusals.words("out_of_range"), code="out_of_range"))
        return super().convert_known_exceptions(exc)

    def _names(self) -> dict | None:
        """The teams' names by side when the view writes to one match (``refusal_names``), else None ("NS", "EW")."""
        view = self.context.get("view")
        named = getattr(view, "refusal_names", None)
        return named() if callable(named) else None


class ExceptionFormatter(BaseExceptionFormatter):
    """Give rule violations their own field (``attr``) instead of the library's flattening."""

    def get_errors(self) -> list[Error]:
        if isinstance(self.exc, RuleValidationError):
            return [Error(e["code"], e["detail"], e["attr"]) for e in self.exc.refusals]
        return super().get_errors()
