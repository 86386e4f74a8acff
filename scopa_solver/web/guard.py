"""The server's limits on every API request, in one place (an ASGI middleware, `Guard`):

- its **body** is read with a cap, `LIMITS["body"]` bytes (413 beyond, before anything parses it),
  within `LIMITS["body_time"]` seconds (else 408); either answer closes the connection;
- its **time**: the whole request runs in a `kernel.time_box` of `LIMITS["request_time"]`
  seconds, which every search it starts (in the route's worker thread too) ends by; a client
  that leaves, or the server stopping, cancels the box, so the search stops within
  milliseconds and frees its thread;
- its **memory**: a request that searches (`SEARCHING`) or brings a body over
  `LIMITS["small_body"]` takes one of `LIMITS["searches"]` places first (each search holds
  transposition tables, a large body parses into much more memory than its bytes); at most
  `LIMITS["queue"]` wait for one, on the event loop, holding no thread; more are answered 503.
  The cheap routes (the board, compose, deal, info) never wait behind searches.

`Guard` takes its `boxes` and `Places` from the app (``app.state``); `stopping_server` makes the uvicorn server that cancels every running request's box when it
shuts down (Ctrl-C), so that it stops within about a second whatever it is doing.

Below the app, `guarded_protocol` bounds the **connections** (uvicorn counts a connection that
never sends a request against its `limit_concurrency` and never times it out, so a few dozen
idle sockets locked everyone out): a connection has `LIMITS["header_time"]` seconds to send a
request's headers (from its opening or its previous answer), else it is closed; the server keeps
at most `LIMITS["per_client"]` connections from one address and `LIMITS["connections"]` in all.
A connection over a cap closes idle ones (waiting for a request, the longest waiting first; never
one whose request has arrived unread), so that sockets held open cost their holder its own idle
ones, never anyone's request; a request is answered 503 only when the caps are full of requests
under way.
"""
from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections import deque
from typing import Any, Awaitable, Callable, Optional

from .. import kernel
from .service import LIMITS

SEARCHING = frozenset({"/api/analyze", "/api/solve", "/api/tree", "/api/suggest", "/api/play/new",
                       "/api/play/move", "/api/review"})
SEARCHING |= {"/api/play/hint", "/api/play/next"}     # a hint's suggest; the next round's bots
_WAIT = 0.01        # seconds between looks at the requests still ending


class Places:
    """At most `size` holders at once, at most `queue` waiting (first come, first served).
    Waiters wait on their own event loop; the count is shared under a lock, so that the
    places hold across threads and loops (a test client runs one loop per request)."""

    def __init__(self, size: int, queue: int) -> None:
        self.size, self.queue = size, queue
        self.busy = 0
        self.waiting: deque = deque()
        self._lock = threading.Lock()

    async def acquire(self, timeout: float) -> bool:
        """A place within `timeout` seconds; False when the queue is full, time ran out or the
        waiters were sent away (`send_away`)."""
        with self._lock:
            if self.busy < self.size and not self.waiting:
                self.busy += 1
                return True
            if len(self.waiting) >= self.queue:
                return False
            loop = asyncio.get_running_loop()
            waiter = (loop, loop.create_future())
            self.waiting.append(waiter)
        try:
            return await asyncio.wait_for(asyncio.shield(waiter[1]), max(0.0, timeout))
        except BaseException as exc:        # timed out or cancelled: give back a place given meanwhile
            with self._lock:
                given = waiter not in self.waiting
                if not given:
                    self.waiting.remove(waiter)
            if given:
                self.release()
            if isinstance(exc, asyncio.TimeoutError):
                return False
            raise

    def release(self) -> None:
        with self._lock:
            if not self.waiting:
                self.busy -= 1
                return
            loop, future = self.waiting.popleft()       # the place passes to the first waiter
        loop.call_soon_threadsafe(_give, future, True)

    def send_away(self) -> None:
        """Every waiter gets no place (the server is stopping)."""
        with self._lock:
            waiters, self.waiting = list(self.waiting), deque()
        for loop, future in waiters:
            loop.call_soon_threadsafe(_give, future, False)


def _give(future: asyncio.Future, place: bool) -> None:
    if not future.done():
        future.set_result(place)


async def cancel_all(boxes: set, reason: str, places: Optional[Places] = None) -> None:
    """Cancel every running request's box, and any that starts meanwhile (and send the waiters
    for a place away), then wait until all have ended."""
    while boxes:
        for box in list(boxes):
            if box.reason is None:
                box.cancel(reason)
        if places is not None:
            places.send_away()
        await asyncio.sleep(_WAIT)


class Guard:
    """The ASGI middleware of the limits above, for every path under /api/; `boxes` is the set
    of the running requests' time boxes (the server's shutdown cancels them)."""

    def __init__(self, app: Any, boxes: set, places: Places) -> None:
        self.app, self.boxes, self.places = app, boxes, places

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        with kernel.time_box(LIMITS["request_time"], f"the request ({scope['path']})") as box:
            assert box is not None      # a number of seconds always makes a box
            self.boxes.add(box)
            try:
                await self._serve(box, scope, receive, send)
            finally:
                self.boxes.discard(box)

    async def _serve(self, box: kernel.TimeBox, scope: dict, receive: Callable, send: Callable) -> None:
        cap = LIMITS["body"]
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if not length.isdigit() or int(length) > cap:
            return await _answer(scope, send, 413, f"the request body is {_size(length)}; at most {cap:,} "
                                                   "bytes are read", "BodyTooLarge", close=True)
        wait = min(LIMITS["body_time"], box.deadline - time.monotonic())
        try:
            body = await asyncio.wait_for(_read_body(receive, cap), max(0.0, wait))
        except asyncio.TimeoutError:
            return await _answer(scope, send, 408, f"the request body did not arrive within {wait:.3g} s",
                                 "RequestTimeout", close=True)
        if body is None:            # the client left
            return
        if len(body) > cap:
            return await _answer(scope, send, 413, f"the request body is more than {cap:,} bytes", "BodyTooLarge",
                                 close=True)
        heavy = scope["path"] in SEARCHING or len(body) > LIMITS["small_body"]
        if heavy and not await self.places.acquire(box.deadline - time.monotonic()):
            message = box.reason or (f"the server is busy ({self.places.size} searches running, "
                                     f"{len(self.places.waiting)} waiting): try again later")
            return await _answer(scope, send, 503, message, "ServerBusy")
        gone = asyncio.Event()
        watch = asyncio.ensure_future(self._watch(receive, box, gone))
        try:
            await self.app(scope, _replay(body, gone), send)
        finally:
            watch.cancel()
            if heavy:
                self.places.release()

    @staticmethod
    async def _watch(receive: Callable, box: kernel.TimeBox, gone: asyncio.Event) -> None:
        """Wait for the client to leave; then stop the request's searches."""
        while (await receive())["type"] != "http.disconnect":
            pass
        gone.set()
        box.cancel("the client left")       # once: its searches' stop tokens stay set


async def _read_body(receive: Callable, cap: int) -> Optional[bytes]:
    """The body, or as soon as it is longer than `cap` its first part (None: the client left)."""
    parts, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        parts.append(chunk)
        size += len(chunk)
        if size > cap or not message.get("more_body"):
            return b"".join(parts)


def _replay(body: bytes, gone: asyncio.Event) -> Callable[[], Awaitable[dict]]:
    """The `receive` the app sees: the body read, then the client's leaving."""
    sent = False

    async def receive() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}
    return receive


def _size(length: bytes) -> str:
    return f"{int(length):,} bytes" if length.isdigit() else f"of length {length[:20].decode('latin-1')!r}"


async def _answer(scope: dict, send: Callable, status: int, message: str, kind: str, close: bool = False) -> None:
    """Answer `status` without reading the body; `close`: then close the connection (a body
    not read to its end cannot be followed by another request)."""
    from starlette.responses import JSONResponse
    response = JSONResponse({"error": message, "type": kind}, status_code=status,
                            headers={"connection": "close"} if close else None)

    async def nothing() -> dict:            # the answer does not read the body
        return {"type": "http.disconnect"}
    await response(scope, nothing, send)


def stopping_server(config: Any, boxes: set, places: Places, live: Any = None) -> Any:
    """A uvicorn server that, when it shuts down, first cancels every running request's time
    box (`boxes`), sends the waiters for `places` away and stops the `live` analyses: their
    searches stop and the requests end, so the server stops at once."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            if live is not None:
                live.stop_all()
            stop = asyncio.ensure_future(cancel_all(boxes, "the server is stopping", places))
            try:
                await super().shutdown(sockets)
            finally:
                stop.cancel()
    return Server(config)


def _unread(transport: Any) -> int:
    """The bytes received on `transport`'s socket and not read yet (0 where the system does not say)."""
    try:
        import fcntl
        import termios
        sock = transport.get_extra_info("socket")
        return int.from_bytes(fcntl.ioctl(sock.fileno(), termios.FIONREAD, bytes(4)), sys.byteorder)
    except (ImportError, AttributeError, OSError):
        return 0


def guarded_protocol() -> type:
    """A uvicorn HTTP protocol class (h11) with the limits on connections above, for one server
    (the count of connections per address is its own)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    clients: dict = {}          # address -> its open connections

    class Connection(H11Protocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._app, self.app = self.app, self._admit     # every request passes `_admit` first
            self._expiry: Optional[asyncio.TimerHandle] = None
            self.address, self.since = "", 0.0

        @property
        def idle(self) -> bool:
            """Waiting for a request (none under way)."""
            return self.cycle is None or self.cycle.response_complete

        def has_unread(self) -> bool:
            """Whether bytes it sent wait unread (a request, just arrived in a burst of connections)."""
            return _unread(self.transport) > 0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.address = self.client[0] if self.client else ""
            clients.setdefault(self.address, []).append(self)
            self._wait_for_request()
            self._make_room()

        def connection_lost(self, exc: Optional[Exception]) -> None:
            mine = clients.get(self.address, [])
            if self in mine:
                mine.remove(self)
            if not mine:
                clients.pop(self.address, None)
            if self._expiry is not None:
                self._expiry.cancel()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._wait_for_request()

        def _wait_for_request(self) -> None:
            if self._expiry is not None:
                self._expiry.cancel()
            self.since = self.loop.time()
            self._expiry = self.loop.call_later(LIMITS["header_time"], self._expire)

        def _expire(self) -> None:
            if self.idle and not self.transport.is_closing():      # no request's headers in time
                self.transport.close()

        def _make_room(self) -> None:
            """Close idle connections until this one is within the caps (if enough are idle)."""
            def evict(group: list, cap: int, order: Callable) -> None:
                idle = sorted((c for c in group if c is not self and c.idle and not c.has_unread()), key=order)
                for c in idle[:max(0, len(group) - cap)]:
                    c.transport.close()
            kept = {a: [c for c in g if not c.transport.is_closing()] for a, g in clients.items()}
            evict(kept.get(self.address, []), LIMITS["per_client"], lambda c: c.since)
            kept = {a: [c for c in g if not c.transport.is_closing()] for a, g in kept.items()}
            evict([c for g in kept.values() for c in g], LIMITS["connections"],      # the busiest
                  lambda c: (-len(kept[c.address]), c.since))                      # client gives first

        async def _admit(self, scope: dict, receive: Callable, send: Callable) -> None:
            """Serve the request unless the caps are full of requests under way (503)."""
            self._make_room()
            busy = {a: sum(not c.idle and not c.transport.is_closing() for c in g) for a, g in clients.items()}
            if busy.get(self.address, 0) <= LIMITS["per_client"] and sum(busy.values()) <= LIMITS["connections"]:
                return await self._app(scope, receive, send)
            await _answer(scope, send, 503, f"too many connections with a request under way (at most "
                                            f"{LIMITS['per_client']} from one address, {LIMITS['connections']} in "
                                            "all): try again later",
                          "ServerBusy", close=True)
    return Connection


__all__ = ["Guard", "Places", "SEARCHING", "cancel_all", "guarded_protocol", "stopping_server"]
