"""Read what is left of a request's body after its answer, so the connection can serve the next request.

A view may answer before reading the body (a 401 or 403 for a POST, a refusal of its size). gunicorn
then closes the kept connection instead of finding the next request after the body, and nginx, which
keeps its connections to web (deploy/nginx), would send the next request, perhaps another client's
hand, on a connection being closed: 502. So the rest of the body is read and dropped here, up to
``DRAIN_LIMIT`` bytes (nginx refuses larger bodies first: ``client_max_body_size``); past it the
connection is closed as before.
"""

from __future__ import annotations

DRAIN_LIMIT = 8 * 1024 * 1024
_CHUNK = 64 * 1024


class DrainRequestBody:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        stream = getattr(request, "_stream", None)  # Django's LimitedStream over the body's Content-Length
        if stream is not None and getattr(stream, "_pos", 0) < getattr(stream, "limit", 0):
            try:
                drained = 0
                while drained < DRAIN_LIMIT and (chunk := stream.read(_CHUNK)):
                    drained += len(chunk)
            except OSError:  # the client went away: gunicorn closes the connection anyway
                pass
        return response
