"""The ASGI server's worker: uvicorn under gunicorn, without per-message compression on WebSockets and
without uvicorn's own reading of proxy headers.

A live region is pushed to hundreds of open pages at once; compressing it once per socket costs the
worker's CPU per viewer (the HTTP answers are still compressed by the project and the proxy).

uvicorn believes ``X-Forwarded-For`` from the addresses in ``forwarded_allow_ips`` (127.0.0.1 by
default), so a client on the host itself could pose as any address and spread its password guesses
past the lockout. The servers trust no proxy header: the project reads ``X-Forwarded-For`` itself,
as far as ``TRUSTED_PROXIES`` says (``config.auth.client_ip``, DRF's ``NUM_PROXIES``).
"""

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "ws_per_message_deflate": False, "proxy_headers": False}
