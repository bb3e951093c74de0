"""The runtime wired to a pair of streams: transport, generated bindings, server, sessions.
Process concerns (stdio, exit codes) stay in `__main__.py`."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from dsh_sdk._gen.constants import LATEST_PROTOCOL_VERSION
from dsh_sdk._gen.peers import serve_harness_sdk
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.inbound_handlers import describe_error
from dsh_sdk.line_reader import ByteSource
from dsh_sdk.line_writer import LineOutput
from dsh_sdk.peer_support import PeerTransport
from dsh_sdk.runtime.adapters.echo_adapter import EchoAdapter
from dsh_sdk.runtime.adapters.model_adapter import ModelAdapter
from dsh_sdk.runtime.attachment_store import AttachmentStore
from dsh_sdk.runtime.notifier import NotifierGate, RuntimeStoppedError
from dsh_sdk.runtime.server import RuntimeServer, RuntimeServerOptions
from dsh_sdk.runtime.session import Session, SessionRegistry
from dsh_sdk.transport import JsonRpcLineTransport
from dsh_sdk.version_gate import PlayingVersion

__all__ = ["RuntimeEnd", "describe_diagnostic", "serve_runtime"]

RuntimeEnd = Literal["shutdown", "input-ended", "output-failed"]
"""Why a runtime stopped serving: `shutdown` was answered and the output flushed; the input ended
(the owed responses and the started turns were sent and flushed); writing failed (nobody reads
the output any more)."""

DEFAULT_FLUSH_TIMEOUT = 5.0
"""Longest wait, in seconds, for the output to drain before giving up on it."""


async def serve_runtime(
    input: ByteSource,
    output: LineOutput,
    log: Callable[[str], None],
    *,
    adapters: Sequence[ModelAdapter] | None = None,
    store: AttachmentStore | None = None,
    chunk_delay: float = 0.0,
    max_tokens_is_success: bool = False,
    flush_timeout: float = DEFAULT_FLUSH_TIMEOUT,
    protocol_version: int = LATEST_PROTOCOL_VERSION,
) -> RuntimeEnd:
    """Serves the protocol on `input`/`output` until `shutdown`, the end of the input, or a broken
    output, and returns which of them it was once the output has been flushed.

    `log` receives one line (no `\\n`) per diagnostic or failure; nothing but frames is ever
    written to `output`. `adapters` default to the echo adapter, `store` to the store shared with
    the TypeScript runtime; `chunk_delay` (seconds) pauses before each `assistant/chunk`;
    `max_tokens_is_success` reports a child's `max-tokens` stop as `status: "ok"` (default: only
    `completed` is `ok`, as in the original without its deployment option); `protocol_version`
    below the latest plays that older runtime exactly (later methods `-32601`, later params
    members unknown).
    """
    # The transport stops writing when its input ends, but the runtime still owes frames then:
    # it reads through a feed that reports the end only after those frames were sent.
    feed = _HeldInput(input, log)
    transport = JsonRpcLineTransport(
        feed, output, on_diagnostic=lambda diagnostic: log(describe_diagnostic(diagnostic))
    )
    ended: asyncio.Future[RuntimeEnd] = asyncio.get_running_loop().create_future()

    def finish(end: RuntimeEnd) -> None:
        if not ended.done():
            ended.set_result(end)

    server = _create_server(
        transport,
        log,
        adapters=adapters,
        store=store,
        chunk_delay=chunk_delay,
        max_tokens_is_success=max_tokens_is_success,
        protocol_version=protocol_version,
        on_shutdown=lambda: finish("shutdown"),
    )

    async def settle_when_input_ends() -> None:
        await feed.ended.wait()
        await server.settle()
        finish("input-ended")

    async def watch_output() -> None:
        closed = await transport.wait_closed()
        if closed.reason == "output-error":
            finish("output-failed")

    watchers = [
        asyncio.ensure_future(settle_when_input_ends()),
        asyncio.ensure_future(watch_output()),
    ]
    transport.start()
    try:
        end = await ended
        if end != "output-failed":
            await flush_output(output, flush_timeout)
        if end == "input-ended":
            # Ending the feed reports a final line cut short by the end of the input, if any.
            feed.release()
            await transport.wait_closed()
    finally:
        for watcher in watchers:
            watcher.cancel()
        await transport.close()
    return end


def _create_server(
    transport: JsonRpcLineTransport,
    log: Callable[[str], None],
    *,
    adapters: Sequence[ModelAdapter] | None,
    store: AttachmentStore | None,
    chunk_delay: float,
    max_tokens_is_success: bool,
    protocol_version: int,
    on_shutdown: Callable[[], None],
) -> RuntimeServer:
    """The server and its sessions, bound to the transport through the generated bindings."""
    notifier = NotifierGate()

    def on_turn_failed(error: BaseException, session: Session) -> None:
        if isinstance(error, RuntimeStoppedError):
            return  # cut short by `shutdown`: expected
        log(f"the turn of session {session.id} failed: {describe_error(error)}")

    def shut_down() -> None:
        notifier.close()
        on_shutdown()

    server = RuntimeServer(
        RuntimeServerOptions(
            adapters=adapters if adapters is not None else [EchoAdapter()],
            store=store if store is not None else AttachmentStore(),
            sessions=SessionRegistry(lambda id: Session(id, notifier, on_turn_failed)),
            notifier=notifier,
            chunk_delay=chunk_delay,
            max_tokens_is_success=max_tokens_is_success,
            on_shutdown=shut_down,
        )
    )
    served: PeerTransport = transport
    if protocol_version < LATEST_PROTOCOL_VERSION:
        served = PlayingVersion(transport, protocol_version)
    serve_harness_sdk(served, server)
    notifier.bind(served)
    return server


async def flush_output(output: LineOutput, timeout: float) -> None:
    """Returns once everything handed to `output` so far was written: after the responses being
    answered reach the writer, its buffer must stay empty across two turns of the loop. Gives up
    after `timeout` seconds (a client that stops reading must not keep the runtime alive)."""
    deadline = time.monotonic() + timeout
    quiet_turns = 0
    while quiet_turns < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0)
        if output.is_closing():
            return
        size = _buffered_bytes(output)
        if size == 0:
            quiet_turns += 1
            continue
        quiet_turns = 0
        with contextlib.suppress(Exception):
            await asyncio.wait_for(output.drain(), max(0.0, deadline - time.monotonic()))
        await asyncio.sleep(0.001)


def _buffered_bytes(output: LineOutput) -> int:
    """Bytes the output holds that the OS has not taken yet (0 when it cannot say)."""
    target: Any = output
    if not hasattr(target, "get_write_buffer_size"):
        target = getattr(target, "transport", None)
    try:
        return int(target.get_write_buffer_size())
    except Exception:
        return 0


def describe_diagnostic(diagnostic: TransportDiagnostic) -> str:
    """One stderr line: reason, line number and size, then the transport's explanation."""
    where = "" if diagnostic.line is None else f" line={diagnostic.line}"
    detail = "" if diagnostic.detail is None else f" ({diagnostic.detail})"
    message = re.sub(r"\s+", " ", f"{diagnostic.message}{detail}")
    return f"ignored input: {diagnostic.reason}{where} bytes={diagnostic.bytes}: {message}"


class _HeldInput:
    """Reads `source`, but holds its end back until `release()`: `ended` is set when the source
    ends (or fails: that is logged and taken as its end), and only then does `read` return
    `b""`."""

    def __init__(self, source: ByteSource, log: Callable[[str], None]) -> None:
        self._source = source
        self._log = log
        self.ended = asyncio.Event()
        self._released = asyncio.Event()

    def release(self) -> None:
        """Lets `read` report the end of the input."""
        self._released.set()

    async def read(self, n: int = -1) -> bytes:
        if not self.ended.is_set():
            try:
                data = await self._source.read(n)
            except Exception as error:
                self._log(f"reading the input failed: {describe_error(error)}")
                data = b""
            if data:
                return data
            self.ended.set()
        await self._released.wait()
        return b""
