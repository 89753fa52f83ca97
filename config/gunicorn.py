"""gunicorn's settings for both of the project's servers (``gunicorn -c python:config.gunicorn``).

- ``web``: ``gunicorn config.wsgi:application -c python:config.gunicorn`` (sync workers, HTTP, behind the proxy);
- ``live``: ``gunicorn config.asgi:application -c python:config.gunicorn -k config.uvicorn_worker.Worker``
  (the WebSockets; alone, HTTP too).

Workers from ``WEB_CONCURRENCY`` (gunicorn reads it itself, 2 here by default; docker-compose's ``web`` 4),
threads from ``WEB_THREADS`` (1 by default): one thread a worker is gunicorn's sync worker, more its threaded
worker. A ``web`` process holds at most ``WEB_THREADS`` database connections, each thread keeping its own
(``CONN_MAX_AGE``), so ``WEB_CONCURRENCY`` × ``WEB_THREADS`` bounds the server's.
"""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("WEB_THREADS", "1"))
# Sync workers: the proxy (nginx) reads each request whole and buffers each answer, so a slow client never holds
# a worker, and a request costs less CPU than in the threaded worker, which hands each request from thread to
# thread and shares the GIL (README "Why this server": 0.92-1.01 of bench_server's baseline in four runs of six on
# two machines, 0.78-0.92 in the other two; the threaded worker 0.75-1.05). More than one thread: the threaded worker, for a server with no proxy in front
# (it keeps connections alive and reads slow clients without blocking).
worker_class = "gthread" if threads > 1 else "sync"
# No proxy header is believed by the server itself (gunicorn trusts X-Forwarded-* from 127.0.0.1 by
# default): the project reads X-Forwarded-For as far as TRUSTED_PROXIES says (config/auth.py).
forwarded_allow_ips = ""
# The threaded worker's idle kept connection stays open longer than nginx keeps it (deploy/nginx: 60 s), so
# nginx never reuses one gunicorn is closing (a POST on it would answer 502). A sync worker closes each one.
keepalive = 75
# Each request's access line, unless ACCESS_LOG=0: docker-compose's web sets it, since nginx in front logs every
# request already (the image's default access log, on its stdout). gunicorn's line is not free: 0.1-0.2 ms of
# the worker's CPU a request (glogging's atoms and strftime; README "Why this server").
accesslog = None if os.environ.get("ACCESS_LOG", "1") == "0" else "-"
graceful_timeout = 20
