"""Errors the services raise besides the rules engine's ``scoring.RuleViolation``."""


class ServiceError(Exception):
    """A refusal with a stable machine-readable code."""

    status = 400

    def __init__(self, code: str, message: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


class Conflict(ServiceError):
    """The request conflicts with the current state (HTTP 409): a hand already entered, a race lost."""

    status = 409


class IdempotencyKeyMismatch(ServiceError):
    """An Idempotency-Key already stored with another request (HTTP 422, as the IETF Idempotency-Key draft
    answers): not a retry, so neither replayed nor stored. Its code is ``idempotency_key_mismatch``."""

    status = 422
    code = "idempotency_key_mismatch"

    def __init__(self, message: str):
        super().__init__(self.code, message)
