"""One error shape for the whole API, built on drf-standardized-errors.

The library formats every DRF exception as ``{"type", "errors": [{"code", "attr", "detail"}]}``.
This module plugs in at its documented customisation points (``EXCEPTION_HANDLER_CLASS`` and
``EXCEPTION_FORMATTER_CLASS``) to translate what the domain raises:

- ``scoring.RuleViolation``: 400 ``validation_error``, one error per violation (code, field, message);
- ``tournaments.services.errors.Conflict``: 409 ``client_error`` with the conflict's code;
- ``tournaments.services.errors.IdempotencyKeyMismatch``: 422 ``client_error`` ``idempotency_key_mismatch``;
- any other ``ServiceError``: 400 ``validation_error`` (``InvalidFields``: one error per field);
- a protected/restricted delete or an integrity race in the database: 409 ``client_error``;
- a database fault (the server away, the connection ended, no connection to be had): 503
  ``server_error`` ``database_unavailable`` with ``Retry-After`` (``config.database_unavailable``);
- hostile input: a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` 413 ``too_large``, JSON nested too
  deeply for the parser (``RecursionError``) 400 ``parse_error``. Never a 500 for bad input.
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
from tournaments.services.errors import ServiceError

from .engine import RuleViolation


class RuleValidationError(exceptions.ValidationError):
    """A 400 carrying the rules engine's violations, each with its own code and field."""

    def __init__(self, violations):
        self.violations = list(violations)
        super().__init__([ErrorDetail(v.message, code=v.code) for v in self.violations])


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


class _Violation:
    """A violation-like record for a service error that is not a rule violation."""

    def __init__(self, code, field, message):
        self.code, self.field, self.message = code, field, message


class ExceptionHandler(BaseExceptionHandler):
    """Convert domain exceptions to DRF ones before the library formats them."""

    def convert_known_exceptions(self, exc: Exception) -> Exception:
        if isinstance(exc, RequestDataTooBig):
            from django.conf import settings

            return PayloadTooLarge(ErrorDetail(
                f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.", code="too_large"))
        if isinstance(exc, (TooManyFieldsSent, TooManyFilesSent)):
            return exceptions.ParseError(ErrorDetail("The request has too many fields.", code="too_many_fields"))
        if isinstance(exc, RecursionError):
            return exceptions.ParseError(ErrorDetail("The request body is nested too deeply.", code="parse_error"))
        if isinstance(exc, RuleViolation):
            return RuleValidationError(exc.violations)
        if isinstance(exc, ServiceError):
            if exc.status == 409:  # a Conflict
                return conflict(exc.code or "conflict", exc.message)
            if exc.status == 422:  # an IdempotencyKeyMismatch
                return UnprocessableError(ErrorDetail(exc.message, code=exc.code or "unprocessable"))
            errors = getattr(exc, "errors", None) or [(exc.code, exc.field, exc.message)]  # InvalidFields: several
            return RuleValidationError([_Violation(code or "invalid", field, message)
                                        for code, field, message in errors])
        if isinstance(exc, (ProtectedError, RestrictedError)):
            return conflict("protected", "This object is still referred to by others and cannot be deleted.")
        if isinstance(exc, IntegrityError):
            return conflict("integrity", "The change conflicts with stored data (a duplicate or a concurrent change).")
        if isinstance(exc, DATABASE_FAULTS):
            return DatabaseUnavailable(ErrorDetail(database_unavailable_message(), code="database_unavailable"))
        if isinstance(exc, DataError):
            return exceptions.ValidationError(ErrorDetail("A value is out of range.", code="out_of_range"))
        return super().convert_known_exceptions(exc)


class ExceptionFormatter(BaseExceptionFormatter):
    """Give rule violations their own field (``attr``) instead of the library's flattening."""

    def get_errors(self) -> list[Error]:
        if isinstance(self.exc, RuleValidationError):
            return [Error(v.code, v.message, v.field) for v in self.exc.violations]
        return super().get_errors()
