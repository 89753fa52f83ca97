"""A client of the push channel's stream for the tests: the ASGI application driven as a server drives it, and the
Server-Sent Events read back as a browser's EventSource reads them."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlencode

from channels.testing import ApplicationCommunicator

from config.asgi import application


def parse_frames(text: str) -> list[dict]:
    """Whole frames of an event stream: ``{"id", "data", "comment", "retry"}`` each (as a browser sees them)."""
    frames = []
    for block in text.split("\n\n"):
        if not block:
            continue
        frame = {"id": None, "data": None, "comment": None, "retry": None}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "":
                frame["comment"] = value
            elif name in ("id", "retry"):
                frame[name] = value
            elif name == "data":
                frame["data"] = value if frame["data"] is None else frame["data"] + "\n" + value
        frames.append(frame)
    return frames


class Stream:
    """One ``GET /api/v1/push/stream/`` on the ASGI application."""

    def __init__(self, ticket: str | None = None, *, last_event_id: str | None = None, query_last: str | None = None,
                 language: str | None = None, origin: str | None = None, method: str = "GET", client="127.0.0.1"):
        query = {}
        if ticket is not None:
            query["ticket"] = ticket
        if query_last is not None:
            query["last_event_id"] = query_last
        headers = [(b"host", b"testserver"), (b"accept", b"text/event-stream")]
        if last_event_id is not None:
            headers.append((b"last-event-id", last_event_id.encode()))
        if language:
            headers.append((b"accept-language", language.encode()))
        if origin:
            headers.append((b"origin", origin.encode()))
        self.scope = {"type": "http", "method": method, "path": "/api/v1/push/stream/",
                      "query_string": urlencode(query).encode(), "headers": headers, "client": (client, 50000),
                      "server": ("testserver", 80), "scheme": "http", "http_version": "1.1",
                      "asgi": {"version": "3.0"}, "root_path": ""}
        self.communicator = ApplicationCommunicator(application, self.scope)
        self.status = None
        self.headers: dict[str, str] = {}
        self.buffer = ""
        self.frames: list[dict] = []
        self.ended = False
        self.last: tuple[str, dict] | None = None

    async def open(self, timeout: float = 10) -> Stream:
        await self.communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.communicator.receive_output(timeout)
        assert start["type"] == "http.response.start", start
        self.status = start["status"]
        self.headers = {k.decode(): v.decode() for k, v in start["headers"]}
        return self

    async def body(self, timeout: float = 10) -> bytes:
        """The whole body of an answer that is not a stream (a refusal)."""
        chunks = []
        while True:
            message = await self.communicator.receive_output(timeout)
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                await self.communicator.wait(timeout)
                return b"".join(chunks)

    async def json(self) -> dict:
        return json.loads(await self.body())

    async def _more(self, timeout: float) -> None:
        # Not receive_output: its timeout cancels the application, and a stream that says nothing for a while is
        # still open.
        if self.communicator.future.done():
            self.communicator.future.result()
        message = await asyncio.wait_for(self.communicator.output_queue.get(), timeout)
        assert message["type"] == "http.response.body", message
        self.buffer += message.get("body", b"").decode()
        if not message.get("more_body"):
            self.ended = True
        whole, _, self.buffer = self.buffer.rpartition("\n\n")
        if whole:
            self.frames += parse_frames(whole + "\n\n")

    async def next_frame(self, timeout: float = 10, *, comments: bool = False) -> dict:
        """The next frame (data frames only, unless ``comments``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            while self.frames:
                frame = self.frames.pop(0)
                if frame["data"] is not None or (comments and frame["comment"] is not None):
                    return frame
            if self.ended:
                raise EOFError("the stream ended")
            await self._more(max(0.01, deadline - loop.time()))

    async def next_event(self, timeout: float = 10) -> tuple[str, dict]:
        frame = await self.next_frame(timeout)
        return frame["id"], json.loads(frame["data"])

    async def events_until_ready(self, timeout: float = 10) -> list[tuple[str, dict]]:
        """The events up to and with ``ready`` (a replay, a reset)."""
        found = []
        while not found or found[-1][1]["event"] != "ready":
            found.append(await self.next_event(timeout))
        return found

    async def nothing(self, timeout: float = 0.3) -> bool:
        """Whether no event comes within ``timeout`` (one that comes is kept in ``last``)."""
        try:
            self.last = await self.next_event(timeout)
        except (TimeoutError, asyncio.TimeoutError):
            return True
        return False

    async def close(self) -> None:
        await self.communicator.send_input({"type": "http.disconnect"})
        await self.communicator.wait(5)
