"""Runs framing/read (bytes → messages) through the real `JsonRpcLineTransport` and
framing/write (messages → bytes) through its `LineWriter` (test-vectors/README.md, "framing"; the
twin of `helpers/vector-framing.ts`)."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dsh_sdk.errors import JsonRpcResponseError, TransportClosedError
from dsh_sdk.inbound_handlers import NotificationContext, RequestContext
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.line_writer import LineWriter
from transport_support import MemoryOutput, MemoryPeer
from vectors.cases import JsonObject
from vectors.ends import settle

_METHOD_MEMBER = re.compile(rb'"method"\s*:\s*("(?:[^"\\]|\\.)*")')


def chunkings(data: bytes, split_at: list[int] | None) -> list[tuple[str, list[bytes]]]:
    """The chunkings every case is fed in: whole, one byte at a time, and at `splitAt` if given."""
    modes = [
        ("fed whole", [data] if data else []),
        ("fed byte by byte", [data[i : i + 1] for i in range(len(data))]),
    ]
    if split_at is not None:
        cuts = [0, *split_at, len(data)]
        pieces = [data[start:end] for start, end in itertools.pairwise(cuts)]
        modes.append(("fed at splitAt", [piece for piece in pieces if piece]))
    return modes


def mentioned_methods(data: bytes, expectation: JsonObject) -> set[str]:
    """Every method name a file mentions, so that handlers exist for whatever it may carry."""
    methods: set[str] = set()
    for match in _METHOD_MEMBER.finditer(data):
        try:
            name = json.loads(match.group(1).decode("latin-1"))
        except ValueError:
            continue
        if isinstance(name, str):
            methods.add(name)
    for message in expectation["messages"]:
        if isinstance(message.get("method"), str):
            methods.add(message["method"])
    return methods


@dataclass(slots=True)
class ReadObservation:
    """What the transport did with the bytes."""

    inbound: list[JsonObject] = field(default_factory=list)
    """Requests and notifications, in the order the handlers ran."""
    responses: list[JsonObject] = field(default_factory=list)
    """Responses, in the order they settled the runner's requests."""
    all: list[JsonObject] = field(default_factory=list)
    """Both, in the order they were observed."""
    reports: list[JsonObject] = field(default_factory=list)
    answers: list[Any] = field(default_factory=list)
    """What the transport wrote besides the runner's own requests: its answers."""

    def observe(self, target: list[JsonObject], message: JsonObject) -> None:
        target.append(message)
        self.all.append(message)


def _with_params(message: JsonObject, params: object) -> JsonObject:
    return message if params is ABSENT else {**message, "params": params}


async def run_read_case(
    expectation: JsonObject, chunks: list[bytes], methods: set[str]
) -> ReadObservation:
    """Feeds `chunks` to a started transport with a handler for each of `methods` and the
    expectation's pending requests; returns what it delivered, reported and answered."""
    peer = MemoryPeer(max_frame_bytes=expectation.get("maxFrameBytes"))
    transport = peer.transport
    seen = ReadObservation()
    for method in sorted(methods):
        transport.on_request(method, _request_recorder(seen, method))
        transport.on_notification(method, _notification_recorder(seen, method))
    transport.start()
    for index, method in enumerate(expectation.get("pendingRequests", [])):
        task = asyncio.ensure_future(transport.request(method))
        task.add_done_callback(_response_recorder(seen, index + 1))
    await settle()  # the requests are pending (a coroutine only runs once the loop does)
    for chunk in chunks:
        peer.send_raw(chunk)
        await settle(8)
    if expectation.get("inputEnds", True):
        peer.end()
        await transport.wait_closed()
    else:
        await transport.close()
    await settle()
    seen.reports = [
        {"line": d.line, "reason": d.reason, "message": d.message} for d in peer.diagnostics
    ]
    seen.answers = [
        m for m in peer.output.messages() if not (isinstance(m, dict) and "method" in m)
    ]
    return seen


def _request_recorder(seen: ReadObservation, method: str) -> Callable[[Any, RequestContext], None]:
    def on_request(params: Any, context: RequestContext) -> None:
        seen.observe(seen.inbound, _with_params({"id": context.id, "method": method}, params))

    return on_request


def _notification_recorder(
    seen: ReadObservation, method: str
) -> Callable[[Any, NotificationContext], None]:
    def on_notification(params: Any, context: NotificationContext) -> None:
        seen.observe(seen.inbound, _with_params({"method": method}, params))

    return on_notification


def _response_recorder(seen: ReadObservation, id_: int) -> Callable[[asyncio.Future[Any]], None]:
    def on_settled(task: asyncio.Future[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is None:
            seen.observe(seen.responses, {"id": id_, "result": task.result()})
        elif isinstance(error, JsonRpcResponseError):
            seen.observe(seen.responses, {"id": id_, "error": error.to_error_object()})
        elif not isinstance(error, TransportClosedError):
            seen.observe(seen.responses, {"id": id_, "unexpected": repr(error)})

    return on_settled


async def write_lines(messages: list[Any]) -> bytes:
    """The exact bytes the transport's line writer produces for the messages, in order."""
    output = MemoryOutput()

    def on_failure(error: TransportClosedError) -> None:
        raise error

    writer = LineWriter(output, on_failure)
    for message in messages:
        await writer.write(message)
    await settle()
    return bytes(output.data)
