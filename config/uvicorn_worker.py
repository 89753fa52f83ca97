"""The production server's worker: uvicorn under gunicorn, without per-message compression on WebSockets.

A live region is pushed to hundreds of open pages at once; compressing it once per socket costs the
worker's CPU per viewer (the HTTP answers are still compressed by WhiteNoise and the proxy).
"""

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "ws_per_message_deflate": False}
