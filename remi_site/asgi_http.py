"""Django's ASGI handler for HTTP, with one trip into a worker thread per request.

The views (DRF) and middleware of this site are synchronous. Django's own
``ASGIHandler`` serves a synchronous stack with several hops between the event
loop and a thread created for each request: the ``request_started`` signal, the
middleware chain, back to the loop to resolve the URL, into the thread again for
the view, and once more to close the response (``request_finished``). Each hop
costs CPU on the event loop and in the thread; together they were about a fifth of
a move's server time.

:class:`ASGIHandler` reads the body on the event loop as Django does, then runs
everything else the way Django's WSGI handler does (signals, the synchronous
middleware chain, the view, closing a non-streaming response, which hands the
database connection back to its pool), in one call on a pool of worker threads
(``WEB_THREADS``, as a threaded WSGI server would), and sends the response from
the loop. A streaming response (static files) is read part by part on those threads,
sent, and closed as Django does. A streaming response is cancelled when the client
disconnects, as Django's own handler does.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import asgi, base
from django.core.handlers.asgi import get_script_prefix
from django.db import connections
from django.http import FileResponse, HttpResponseBase, StreamingHttpResponse
from django.urls import set_script_prefix

from remi_site import collector

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _threads() -> ThreadPoolExecutor:
    global _executor
    if _executor is None:
        with _executor_lock:
            if _executor is None:
                _executor = ThreadPoolExecutor(
                    max_workers=int(settings.WEB_THREADS),
                    thread_name_prefix="http",
                )
    return _executor


def close_thread_connections(timeout_s: float = 10.0) -> None:
    """Close the database connections the request threads keep between requests, in
    each thread (a connection belongs to its thread): for a server that stops while its
    process goes on, as a test's does. Each thread takes one closing call and holds it
    until all have one, so that no thread takes two."""
    count = int(settings.WEB_THREADS)
    everyone = threading.Barrier(count)

    def close_this_threads() -> None:
        connections.close_all()
        everyone.wait(timeout_s)

    calls = [_threads().submit(close_this_threads) for _ in range(count)]
    for call in calls:
        call.result(timeout_s)


class ASGIHandler(asgi.ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        # The synchronous chain, as under WSGI: no async adapters between middleware.
        self.load_middleware(is_async=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            serve = sync_to_async(self._respond, thread_sensitive=False, executor=_threads())
            response = await serve(scope, body_file)
            try:
                if response.streaming:
                    await self._send_until_disconnect(response, send, receive)
                else:
                    await self.send_response(response, send)
            finally:
                if response.streaming:
                    close = sync_to_async(
                        response.close, thread_sensitive=False, executor=_threads()
                    )
                    await close()
        finally:
            body_file.close()
        # The answer is out: the request's garbage is collected now, not in the middle
        # of another one.
        collector.between_requests()

    async def _send_until_disconnect(
        self, response: HttpResponseBase, send: Any, receive: Any
    ) -> None:
        """Send a streaming response until it ends or the client goes away. A stream
        may wait on events for ever (the NDJSON streams: games/live/ndjson.py) and
        writing to a closed connection fails silently, so only the disconnect tells
        that nobody reads it any more: the stream is cancelled then, and its cleanup
        (its connection slot, its channel groups) runs at once, as Django's own handler
        does it."""
        sending = asyncio.create_task(self.send_response(response, send))
        listening = asyncio.create_task(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait((sending, listening), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (listening, sending):
                if not task.done():
                    task.cancel()
                with contextlib.suppress(asyncio.CancelledError, RequestAborted):
                    await task

    def _respond(self, scope: Any, body_file: Any) -> HttpResponseBase:
        """Everything between reading the body and sending the answer, in one thread."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        response: HttpResponseBase
        if request is None:
            assert error_response is not None
            response = error_response
        else:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
            if isinstance(response, StreamingHttpResponse) and not response.is_async:
                parts = cast(Iterator[bytes], response.streaming_content)
                response.streaming_content = _read_in_threads(parts)
        if not response.streaming:
            # Sends request_finished: the database connection goes back to its pool
            # before the answer is sent, as soon as the thread is done with it.
            response.close()
        return response


async def _read_in_threads(parts: Iterator[bytes]) -> AsyncIterator[bytes]:
    """A synchronous stream (a static file) read part by part on the request threads.
    Django would read it whole into memory first, on its one thread for synchronous
    code, before sending the first byte."""
    take = sync_to_async(_next_part, thread_sensitive=False, executor=_threads())
    while (part := await take(parts)) is not None:
        yield part


def _next_part(parts: Iterator[bytes]) -> bytes | None:
    return next(parts, None)


def get_asgi_application() -> ASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``, with this handler."""
    import django

    django.setup(set_prefix=False)
    return ASGIHandler()
