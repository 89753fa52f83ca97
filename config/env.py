"""Reading the environment: the settings' helpers."""

import os


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]
