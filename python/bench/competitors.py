"""Each competitor consumes the same 64 KiB chunks and returns the number of frames it handled
once every expected frame was handled (the twin of `bench/src/competitors.mjs`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal

from dsh_sdk import jsonlib
from dsh_sdk._gen.models import (
    InitializeParams,
    InitializeResult,
    SessionCloseParams,
    SessionCloseResult,
    SessionInterruptParams,
    SessionInterruptResult,
    SessionPromptParams,
    SessionPromptResult,
    ShutdownResult,
)
from dsh_sdk._gen.peers import HarnessSdkClientPeer, serve_harness_sdk
from dsh_sdk._gen.validators import PARAMS_VALIDATORS
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.inbound_handlers import NotificationContext, RequestContext
from dsh_sdk.transport import JsonRpcLineTransport

Mode = Literal["raw", "validated", "peer", "peer-validated"]
"""How notifications are taken: the parsed message as it is (validation off); checked by the
generated validator (validation on); as dataclasses through the typed client peer, validation off
or on."""


def floor_decode(loads: Callable[[bytes], Any], chunks: list[bytes], count: int) -> int:
    """The floor: split bytes on `\\n` and parse each line; no RPC layer. Correct across chunks:
    pieces of an unfinished line wait in a list and are joined once, so big frames stay linear."""
    seen = 0
    pieces: list[bytes] = []
    for chunk in chunks:
        lines = chunk.split(b"\n")
        tail = lines.pop()
        if lines:
            if pieces:
                pieces.append(lines[0])
                lines[0] = b"".join(pieces)
                pieces = []
            for line in lines:
                if line:
                    loads(line)
                    seen += 1
        if tail:
            pieces.append(tail)
    if seen != count:
        raise AssertionError(f"the floor saw {seen} frames, expected {count}")
    return seen


class ChunkSource:
    """Hands out prepared chunks: the transport's own cost, without a stream's copies."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = iter(chunks)

    async def read(self, n: int = -1) -> bytes:
        return next(self._chunks, b"")


def stream_source(chunks: list[bytes]) -> asyncio.StreamReader:
    """An `asyncio.StreamReader` fed chunk by chunk as a pipe feeds it (the stdio path): at most
    one chunk ahead of the reader, with the stream's copies of every byte."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=len(chunks[0]) if chunks else 2**16)
    pending = iter(chunks)

    def feed() -> None:
        piece = next(pending, None)
        if piece is None:
            reader.feed_eof()
            return
        reader.feed_data(piece)
        loop.call_soon(feed)

    loop.call_soon(feed)
    return reader


class NullOutput:
    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def is_closing(self) -> bool:
        return False


class Failures:
    """Diagnostics a competitor must not get; any is a broken benchmark."""

    def __init__(self) -> None:
        self.seen: list[TransportDiagnostic] = []

    def check(self) -> None:
        if self.seen:
            raise AssertionError(f"diagnostics: {self.seen[:3]}")


async def notifications(
    chunks: list[bytes],
    count: int,
    method: str,
    *,
    mode: Mode,
    backend: jsonlib.JsonBackend,
    through_stream: bool = False,
) -> int:
    """A started transport reading the chunks; every notification is taken as `mode` says."""
    jsonlib.set_backend(backend)
    failures = Failures()
    source = stream_source(chunks) if through_stream else ChunkSource(chunks)
    transport = JsonRpcLineTransport(source, NullOutput(), on_diagnostic=failures.seen.append)
    seen = 0

    def count_one(_: object) -> None:
        nonlocal seen
        seen += 1

    if mode == "raw":
        transport.on_notification(method, lambda params, _: count_one(params))
    elif mode == "validated":
        validate = PARAMS_VALIDATORS[method]

        def on_checked(params: Any, context: NotificationContext) -> None:
            if not validate(params):
                count_one(params)

        transport.on_notification(method, on_checked)
    else:
        peer = HarnessSdkClientPeer(transport, validate=mode == "peer-validated")
        if method == "session.status":
            peer.on_session_status(count_one)
        else:
            peer.on_session_event(count_one)
    transport.start()
    await transport.wait_closed()
    failures.check()
    if seen != count:
        raise AssertionError(f"{mode} delivered {seen} frames, expected {count}")
    return seen


class _PromptHandlers:
    """Server handlers that only take one prompt: they resolve `done` with its block count."""

    def __init__(self, done: asyncio.Future[int]) -> None:
        self._done = done

    async def initialize(
        self, params: InitializeParams, context: RequestContext
    ) -> InitializeResult:
        raise AssertionError("unexpected initialize")

    async def session_prompt(
        self, params: SessionPromptParams, context: RequestContext
    ) -> SessionPromptResult:
        self._done.set_result(len(params.content_blocks))
        return SessionPromptResult(message_id="m")

    async def session_interrupt(
        self, params: SessionInterruptParams, context: RequestContext
    ) -> SessionInterruptResult:
        raise AssertionError("unexpected session/interrupt")

    async def session_close(
        self, params: SessionCloseParams, context: RequestContext
    ) -> SessionCloseResult:
        raise AssertionError("unexpected session/close")

    async def shutdown(self, context: RequestContext) -> ShutdownResult:
        raise AssertionError("unexpected shutdown")


async def big_request(chunks: list[bytes], *, validate: bool, backend: jsonlib.JsonBackend) -> int:
    """One big `session/prompt` through the generated server end; returns once the handler has
    the params (checked, when `validate`, and decoded)."""
    jsonlib.set_backend(backend)
    failures = Failures()
    transport = JsonRpcLineTransport(
        ChunkSource(chunks), NullOutput(), on_diagnostic=failures.seen.append
    )
    done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    serve_harness_sdk(transport, _PromptHandlers(done), validate=validate)
    transport.start()
    blocks = await done
    await transport.close()
    failures.check()
    if blocks != 2:
        raise AssertionError(f"the handler got {blocks} blocks")
    return 1
