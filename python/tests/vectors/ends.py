"""The generated client and server ends over in-memory streams, driven generically by the IDL's
method names, for the vector runner (the twin of `helpers/vector-ends.ts`)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from dsh_sdk._gen.constants import ErrorCode
from dsh_sdk._gen.peers import (
    HarnessSdkClientPeer,
    HarnessSdkRequestHandlers,
    HarnessSdkServerPeer,
    serve_harness_sdk,
)
from dsh_sdk.codec import decode, encode
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.peer_support import PeerTransport
from dsh_sdk.version_gate import PlayingVersion
from dsh_sdk.wire_object import WireObject
from transport_support import MemoryPeer
from vectors.cases import METHODS, IdlMethod, JsonObject, method_by_wire_name


@dataclass(frozen=True, slots=True)
class Delivered:
    """A notification as a subscriber saw it: the dataclass, and its wire form again."""

    method: str
    params: Any
    """`encode(value)`: equal to the wire params when decoding lost nothing."""
    value: WireObject


class End:
    """A transport on an in-memory peer, with the other side driven by the runner."""

    def __init__(self) -> None:
        self.peer = MemoryPeer()
        self.transport = self.peer.transport

    @property
    def sent(self) -> list[Any]:
        """Every line the transport wrote, parsed."""
        return self.peer.output.messages()

    @property
    def diagnostics(self) -> list[Any]:
        return self.peer.diagnostics

    def has_sent(self, count: int) -> Callable[[], bool]:
        """A condition: the transport wrote at least `count` lines."""
        return lambda: len(self.peer.output.messages()) >= count

    def send(self, message: object) -> None:
        """Writes a message, as one compact line, to the transport's input."""
        self.peer.send(message)

    def feed_line(self, raw: str) -> None:
        """Writes one raw wire line (the exact text of the vector) to the transport's input."""
        self.peer.send_raw(raw.encode("utf-8") + b"\n")

    async def close(self) -> None:
        await self.transport.close()


class ClientEnd(End):
    """The generated client end, subscribed to every notification of the protocol."""

    def __init__(self) -> None:
        super().__init__()
        self.client = HarnessSdkClientPeer(self.transport)
        self.delivered: list[Delivered] = []
        for method in METHODS:
            if method.kind == "notification":
                subscribe = getattr(self.client, f"on_{method.py_name}")
                subscribe(self._recorder(method.method))
        self.transport.start()

    def _recorder(self, method: str) -> Callable[[WireObject], None]:
        def record(value: WireObject) -> None:
            self.delivered.append(Delivered(method, encode(value), value))

        return record

    def call(self, wire_name: str, params: object) -> Awaitable[Any]:
        """Sends a request the way an application would: the generated method for a protocol
        request (decoding the wire params into its dataclass, none for a method without params),
        the transport's `request` for any other method."""
        method = method_by_wire_name(wire_name)
        if method is None or method.kind != "request":
            return self.transport.request(wire_name, params)
        call = getattr(self.client, method.py_name)
        if method.params is None:
            return cast(Awaitable[Any], call())
        if not isinstance(params, dict):
            # Absent or non-object params (refused on purpose) no dataclass can carry.
            return self.transport.request(wire_name, params)
        return cast(Awaitable[Any], call(decode(method.params, params)))


Answer = Callable[[str, object, RequestContext], Any]
"""Answers a request (wire method, wire params or ABSENT, context) with the wire result, or
raises the error its response carries; may be a coroutine function."""


class ServerEnd(End):
    """The generated server end, its handlers all delegating to `answer`."""

    def __init__(self, answer: Answer, server_protocol_version: int | None = None) -> None:
        """`server_protocol_version`: the older version the end plays (`PlayingVersion`)."""
        super().__init__()
        handlers = _Handlers(answer)
        self.calls = handlers.calls
        transport: PeerTransport = self.transport
        if server_protocol_version is not None:
            transport = PlayingVersion(self.transport, server_protocol_version)
        self.server: HarnessSdkServerPeer = serve_harness_sdk(
            transport, cast(HarnessSdkRequestHandlers, handlers)
        )
        self.transport.start()

    async def notify(self, wire_name: str, params: object) -> None:
        """Sends a notification through the generated notify method, given its wire params."""
        method = method_by_wire_name(wire_name)
        if method is None or method.params is None:
            raise AssertionError(f"the generated server end cannot send {wire_name}")
        notify = getattr(self.server, f"notify_{method.py_name}")
        await notify(decode(method.params, params))


@dataclass(slots=True)
class HandlerCall:
    method: str
    params: Any
    """The handler's params encoded again (ABSENT for a method without params)."""
    value: WireObject | None


class _Handlers:
    """Implements `HarnessSdkRequestHandlers` for every request of the IDL: each handler records
    its call, encodes the params it got back to the wire, and decodes what `answer` returns."""

    def __init__(self, answer: Answer) -> None:
        self.calls: list[HandlerCall] = []
        for method in METHODS:
            if method.kind == "request":
                setattr(self, method.py_name, self._handler(method, answer))

    def _handler(self, method: IdlMethod, answer: Answer) -> Callable[..., Awaitable[WireObject]]:
        async def handle(*args: Any) -> WireObject:
            value: WireObject | None = args[0] if method.params is not None else None
            context: RequestContext = args[-1]
            params = ABSENT if value is None else encode(value)
            self.calls.append(HandlerCall(method.method, params, value))
            result = answer(method.method, params, context)
            if inspect.isawaitable(result):
                result = await result
            decoded: WireObject = decode(method.result, result)
            return decoded

        return handle


def answer_with(response: JsonObject) -> Any:
    """What a handler does to answer with a response frame: return the result, or raise. A
    `-32603` without data is raised as a plain error, so that the binding's own "handler failed"
    path writes it; any other error is raised as the error itself."""
    if "result" in response:
        return response["result"]
    error = response["error"]
    if error["code"] == ErrorCode.INTERNAL_ERROR and "data" not in error:
        raise RuntimeError(error["message"])
    raise JsonRpcResponseError(error["code"], error["message"], error.get("data", ABSENT))


@dataclass(slots=True)
class Tracked:
    """An awaitable's outcome, readable synchronously once settled."""

    task: asyncio.Future[Any]

    @property
    def is_settled(self) -> bool:
        return self.task.done()

    @property
    def value(self) -> Any:
        return self.task.result()

    @property
    def error(self) -> BaseException | None:
        return None if self.task.cancelled() else self.task.exception()

    def describe(self) -> str:
        if not self.task.done():
            return "pending"
        if self.error is not None:
            return f"raised {self.error!r}"
        value = self.value
        return f"returned {encode(value) if isinstance(value, WireObject) else value!r}"


def track(awaitable: Awaitable[Any]) -> Tracked:
    task = asyncio.ensure_future(awaitable)
    # Retrieved, so that the loop never logs an error the runner checks on its own.
    task.add_done_callback(lambda done: None if done.cancelled() else done.exception())
    return Tracked(task)


def wire_value(value: Any) -> Any:
    """A call's value in wire form: dataclasses are encoded, anything else is already JSON."""
    return encode(value) if isinstance(value, WireObject) else value


async def settle_until(is_done: Callable[[], bool], rounds: int = 200) -> None:
    """Lets the loop run until `is_done()` holds (or `rounds` pass), then a little more."""
    for _ in range(rounds):
        if is_done():
            break
        await asyncio.sleep(0)
    await settle()


async def settle(rounds: int = 10) -> None:
    for _ in range(rounds):
        await asyncio.sleep(0)
