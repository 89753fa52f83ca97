"""Fixtures for the fault tests: a private redis-server to kill, the service pointed at it."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import threading
import time

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateRedis:
    """A redis-server of our own on a free loopback port, without persistence; ``kill()`` takes it down."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


@pytest.fixture
def private_redis():
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server on the PATH (apt-get install redis-server)")
    redis = PrivateRedis()
    redis.start()
    try:
        yield redis
    finally:
        redis.kill()


@contextlib.contextmanager
def celery_against(url: str):
    """Point the project's Celery app at a broker and result backend, not eager; restore it after."""
    from config.celery import app

    conf = app.conf
    saved = {k: conf[k] for k in ("broker_url", "result_backend", "task_always_eager",
                                   "broker_connection_timeout", "task_publish_retry_policy",
                                   "broker_transport_options", "redis_socket_connect_timeout",
                                   "result_backend_transport_options")}

    def reset():  # drop the cached pools (not closed: kombu's global producer pools may share them)
        app._pool = None
        app.amqp._producer_pool = None
        app._local = threading.local()

    conf.update(broker_url=url, result_backend=url, task_always_eager=False, broker_connection_timeout=1,
                task_publish_retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.1,
                                           "interval_max": 0.1},
                broker_transport_options={"socket_connect_timeout": 1}, redis_socket_connect_timeout=1,
                result_backend_transport_options={"retry_policy": {"max_retries": 1, "interval_start": 0,
                                                                   "interval_step": 0.1, "interval_max": 0.1}})
    reset()
    try:
        yield app
    finally:
        conf.update(saved)
        reset()


def redis_settings(settings, url: str) -> None:
    """Point the cache, the channel layer and REDIS_URL at ``url`` (as config/settings.py does with REDIS_URL)."""
    settings.REDIS_URL = url
    settings.CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": url,
                                   "KEY_PREFIX": "faults",
                                   "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1}}}
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": url, "socket_timeout": 30, "socket_connect_timeout": 1}],
                   "prefix": "faults-live"}}}
