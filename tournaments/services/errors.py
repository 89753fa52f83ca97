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
