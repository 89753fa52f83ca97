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


class InvalidFields(ServiceError):
    """Values that make no sense, one error or more, each with its code and field (HTTP 400).

    ``errors`` lists them as ``(code, field, message)``; the first is the error's own code, field and message.
    """

    def __init__(self, errors: list[tuple[str, str | None, str]]):
        code, field, message = errors[0]
        super().__init__(code, message, field)
        self.errors = list(errors)

    @classmethod
    def from_validation_error(cls, exc) -> "InvalidFields":
        """Build one from a Django ``ValidationError`` (a model's ``clean``), its messages in the active language."""
        found = []
        for field, errors in exc.error_dict.items() if hasattr(exc, "error_dict") else [(None, exc.error_list)]:
            for error in errors:
                message = error.message % error.params if error.params else error.message
                found.append((error.code or "invalid", None if field == "__all__" else field, str(message)))
        return cls(found)
