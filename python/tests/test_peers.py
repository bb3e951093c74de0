"""The generated peers (`_gen/peers.py`) and their support (`peer_support.py`) over in-memory
streams: typed calls and subscriptions, schema checks, fan-out, validation off."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from dsh_sdk._gen.models import (
    InitializeParams,
    InitializeResult,
    ServerInfo,
    SessionCloseParams,
    SessionCloseResult,
    SessionInterruptParams,
    SessionInterruptResult,
    SessionPromptParams,
    SessionPromptResult,
    SessionStatusNotification,
    ShutdownResult,
    TextBlock,
    Violation,
)
from dsh_sdk._gen.peers import HarnessSdkClientPeer, serve_harness_sdk
from dsh_sdk.errors import JsonRpcResponseError, RequestTimeoutError
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.peer_support import PeerTransport, ProtocolError, invalid_params_error
from dsh_sdk.transport import JsonRpcLineTransport
from transport_support import MemoryPeer, eventually, settle

# Every test fails on an error the event loop would only log.
pytestmark = pytest.mark.usefixtures("no_loop_errors")

ROUTE = {"cwd": "/w", "provider": "echo", "model": "echo-1"}
ROUTE_PARAMS = InitializeParams(cwd="/w", provider="echo", model="echo-1")
SERVER_INFO = {"serverInfo": {"name": "deepseek-harness-sdk-runtime", "version": "0.0.1"}}
STATUS = {
    "jsonrpc": "2.0",
    "method": "session.status",
    "params": {"sessionId": "s", "status": "idle"},
}


def started(**options: Any) -> MemoryPeer:
    peer = MemoryPeer(**options)
    peer.transport.start()
    return peer


def test_the_line_transport_is_a_peer_transport() -> None:
    transport: PeerTransport = JsonRpcLineTransport(asyncio.StreamReader(), MemoryPeer().output)
    assert transport is not None


# --- the client end ------------------------------------------------------------------------


async def test_a_typed_call_sends_the_wire_params_and_returns_the_result_dataclass() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)
    call = asyncio.ensure_future(client.initialize(dataclasses.replace(ROUTE_PARAMS, max_tokens=8)))
    sent = await peer.output.next_message()
    assert sent == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {**ROUTE, "maxTokens": 8},
    }
    peer.send({"jsonrpc": "2.0", "id": 1, "result": SERVER_INFO})
    result = await call
    assert result == InitializeResult(
        server_info=ServerInfo(name="deepseek-harness-sdk-runtime", version="0.0.1")
    )


async def test_a_call_without_params_sends_no_params_member() -> None:
    peer = started()
    call = asyncio.ensure_future(HarnessSdkClientPeer(peer.transport).shutdown())
    assert await peer.output.next_message() == {"jsonrpc": "2.0", "id": 1, "method": "shutdown"}
    peer.send({"jsonrpc": "2.0", "id": 1, "result": {}})
    assert await call == ShutdownResult()


async def test_a_call_gives_up_after_its_timeout() -> None:
    client = HarnessSdkClientPeer(started().transport)
    with pytest.raises(RequestTimeoutError):
        await client.shutdown(timeout=0.01)


async def test_an_error_response_raises_the_wire_error() -> None:
    peer = started()
    call = asyncio.ensure_future(HarnessSdkClientPeer(peer.transport).shutdown())
    await peer.output.next_message()
    peer.send({"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "no", "data": 1}})
    with pytest.raises(JsonRpcResponseError) as raised:
        await call
    assert raised.value.to_error_object() == {"code": -32600, "message": "no", "data": 1}


async def test_a_result_that_breaks_the_schema_raises_a_protocol_error() -> None:
    peer = started()
    prompt = SessionPromptParams(session_id="s", content_blocks=[TextBlock(type="text", text="")])
    call = asyncio.ensure_future(HarnessSdkClientPeer(peer.transport).session_prompt(prompt))
    await peer.output.next_message()
    peer.send({"jsonrpc": "2.0", "id": 1, "result": {"messageId": 7}})
    with pytest.raises(ProtocolError) as raised:
        await call
    assert raised.value.method == "session/prompt"
    assert [v.pointer for v in raised.value.violations] == ["/messageId"]
    assert "the result of session/prompt breaks the schema: /messageId must be string" in str(
        raised.value
    )


async def test_without_validation_a_result_is_only_decoded() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport, validate=False)
    prompt = SessionPromptParams(session_id="s", content_blocks=[TextBlock(type="text", text="")])
    first = asyncio.ensure_future(client.session_prompt(prompt))
    await peer.output.next_message()
    peer.send({"jsonrpc": "2.0", "id": 1, "result": {"messageId": 7}})
    assert await first == SessionPromptResult(message_id=7)  # type: ignore[arg-type]
    second = asyncio.ensure_future(client.session_prompt(prompt))
    await peer.output.next_message()
    peer.send({"jsonrpc": "2.0", "id": 2, "result": None})
    with pytest.raises(ProtocolError) as raised:
        await second
    assert [v.pointer for v in raised.value.violations] == [""]


async def test_every_subscriber_gets_the_decoded_params_once() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)
    first: list[SessionStatusNotification] = []
    second: list[SessionStatusNotification] = []
    client.on_session_status(first.append)
    client.on_session_status(first.append)  # the same handler again: still once
    unsubscribe = client.on_session_status(second.append)
    peer.send(STATUS)
    await eventually(lambda: len(second) == 1)
    expected = SessionStatusNotification(session_id="s", status="idle")
    assert first == [expected]
    assert second == [expected]
    unsubscribe()
    unsubscribe()
    peer.send(STATUS)
    await eventually(lambda: len(first) == 2)
    await settle()
    assert len(second) == 1


async def test_the_last_unsubscribe_gives_the_method_back_to_the_transport() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)
    unsubscribe = client.on_session_status(lambda params: None)
    with pytest.raises(ValueError, match="already registered"):
        peer.transport.on_notification("session.status", lambda params, context: None)
    unsubscribe()
    peer.transport.on_notification("session.status", lambda params, context: None)


async def test_coroutine_subscribers_are_awaited() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)
    seen: list[str] = []

    async def later(params: SessionStatusNotification) -> None:
        await asyncio.sleep(0)
        seen.append(params.status)

    client.on_session_status(later)
    peer.send(STATUS)
    await eventually(lambda: seen == ["idle"])


async def test_a_failing_subscriber_is_reported_and_the_others_still_get_the_params() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)
    seen: list[str] = []

    def fails(params: SessionStatusNotification) -> None:
        raise RuntimeError("sync boom")

    async def fails_later(params: SessionStatusNotification) -> None:
        raise RuntimeError("async boom")

    client.on_session_status(fails)
    client.on_session_status(fails_later)
    client.on_session_status(lambda params: seen.append(params.status))
    peer.send(STATUS)
    await eventually(lambda: len(peer.diagnostics) == 2)
    assert seen == ["idle"]
    assert [(d.reason, d.method, d.line) for d in peer.diagnostics] == [
        ("notification-handler-failed", "session.status", 1),
        ("notification-handler-failed", "session.status", 1),
    ]
    assert [str(d.cause) for d in peer.diagnostics] == ["sync boom", "async boom"]
    assert peer.diagnostics[0].message == "the session.status handler failed: sync boom"


async def test_a_lone_failing_subscriber_is_reported_by_the_transport() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)

    def fails(params: SessionStatusNotification) -> None:
        raise RuntimeError("boom")

    client.on_session_status(fails)
    peer.send(STATUS)
    await eventually(lambda: len(peer.diagnostics) == 1)
    assert peer.diagnostics[0].reason == "notification-handler-failed"


async def test_params_that_break_the_schema_are_dropped_and_reported() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport)
    seen: list[SessionStatusNotification] = []
    client.on_session_status(seen.append)
    line = '{"jsonrpc":"2.0","method":"session.status","params":{"sessionId":"","status":"x"}}\n'
    peer.send_raw(line.encode())
    await eventually(lambda: len(peer.diagnostics) == 1)
    report = peer.diagnostics[0]
    assert report.reason == "invalid-notification-params"
    assert (report.method, report.line, report.bytes) == ("session.status", 1, len(line) - 1)
    assert [v.pointer for v in report.violations or ()] == ["/sessionId", "/status"]
    assert report.message.startswith("session.status params break the schema: /sessionId must")
    assert seen == []
    assert peer.transport.diagnostic_counts == {"invalid-notification-params": 1}


async def test_without_validation_params_that_cannot_be_decoded_are_still_reported() -> None:
    peer = started()
    client = HarnessSdkClientPeer(peer.transport, validate=False)
    seen: list[SessionStatusNotification] = []
    client.on_session_status(seen.append)
    peer.send({"jsonrpc": "2.0", "method": "session.status", "params": {"sessionId": ""}})
    peer.send(
        {"jsonrpc": "2.0", "method": "session.status", "params": {"sessionId": "", "status": 1}}
    )
    await eventually(lambda: len(seen) == 1)
    assert seen == [SessionStatusNotification(session_id="", status=1)]  # type: ignore[arg-type]
    assert [(d.reason, d.line) for d in peer.diagnostics] == [("invalid-notification-params", 1)]
    assert [v.pointer for v in peer.diagnostics[0].violations or ()] == [""]


# --- the server end ------------------------------------------------------------------------


class Handlers:
    """Records calls; answers as `answers` says (a dataclass, or an exception to raise)."""

    def __init__(self, **answers: Any) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.answers = answers

    def _answer(self, method: str, params: Any) -> Any:
        self.calls.append((method, params))
        answer = self.answers.get(method)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    async def initialize(
        self, params: InitializeParams, context: RequestContext
    ) -> InitializeResult:
        result: InitializeResult = self._answer("initialize", params)
        return result

    async def session_prompt(
        self, params: SessionPromptParams, context: RequestContext
    ) -> SessionPromptResult:
        result: SessionPromptResult = self._answer("session/prompt", params)
        return result

    async def session_interrupt(
        self, params: SessionInterruptParams, context: RequestContext
    ) -> SessionInterruptResult:
        result: SessionInterruptResult = self._answer("session/interrupt", params)
        return result

    async def session_close(
        self, params: SessionCloseParams, context: RequestContext
    ) -> SessionCloseResult:
        result: SessionCloseResult = self._answer("session/close", params)
        return result

    async def shutdown(self, context: RequestContext) -> ShutdownResult:
        result: ShutdownResult = self._answer("shutdown", None)
        return result


INFO = InitializeResult(server_info=ServerInfo(name="deepseek-harness-sdk-runtime", version="1"))


async def test_a_handler_gets_the_decoded_params_and_its_dataclass_is_the_result() -> None:
    peer = started()
    handlers = Handlers(initialize=INFO)
    serve_harness_sdk(peer.transport, handlers)
    peer.send({"jsonrpc": "2.0", "id": 4, "method": "initialize", "params": {**ROUTE, "x": 1}})
    assert await peer.output.next_message() == {
        "jsonrpc": "2.0",
        "id": 4,
        "result": {"serverInfo": {"name": "deepseek-harness-sdk-runtime", "version": "1"}},
    }
    assert handlers.calls == [("initialize", dataclasses.replace(ROUTE_PARAMS, extra={"x": 1}))]


async def test_params_that_break_the_schema_are_refused_before_the_handler_runs() -> None:
    peer = started()
    handlers = Handlers(initialize=INFO)
    serve_harness_sdk(peer.transport, handlers)
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"maxTokens": 0}})
    peer.send({"jsonrpc": "2.0", "id": 2, "method": "initialize"})
    refused = await peer.output.next_message()
    assert refused["error"]["code"] == -32602
    assert refused["error"]["message"] == "Invalid params"
    assert [v["pointer"] for v in refused["error"]["data"]] == [
        "/cwd",
        "/provider",
        "/model",
        "/maxTokens",
    ]
    absent = await peer.output.next_message()
    assert absent["error"]["data"] == [{"pointer": "", "message": "must be object"}]
    assert handlers.calls == []


@pytest.mark.parametrize("params", [{}, None, "absent"])
async def test_a_method_without_params_takes_them_absent_empty_or_null(params: object) -> None:
    peer = started()
    handlers = Handlers(shutdown=ShutdownResult())
    serve_harness_sdk(peer.transport, handlers)
    request: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": "shutdown"}
    if params != "absent":
        request["params"] = params
    peer.send(request)
    assert await peer.output.next_message() == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert handlers.calls == [("shutdown", None)]


async def test_a_method_without_params_refuses_params_that_are_not_an_object() -> None:
    peer = started()
    handlers = Handlers(shutdown=ShutdownResult())
    serve_harness_sdk(peer.transport, handlers)
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "shutdown", "params": []})
    answer = await peer.output.next_message()
    assert answer["error"]["code"] == -32602
    assert handlers.calls == []


async def test_handler_errors_are_answered() -> None:
    peer = started()
    refusal = JsonRpcResponseError(-32002, "Not initialized")
    serve_harness_sdk(
        peer.transport,
        Handlers(initialize=RuntimeError("broken"), session_prompt=None, shutdown=refusal),
    )
    prompt = {"sessionId": "s", "contentBlocks": [{"type": "text", "text": "hi"}]}
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ROUTE})
    peer.send({"jsonrpc": "2.0", "id": 2, "method": "session/prompt", "params": prompt})
    peer.send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
    answers = {}
    for _ in range(3):
        message = await peer.output.next_message()
        answers[message["id"]] = message["error"]
    assert answers[1] == {"code": -32603, "message": "broken"}
    assert answers[2]["code"] == -32603  # None is not a SessionPromptResult
    assert answers[3] == {"code": -32002, "message": "Not initialized"}


async def test_without_validation_params_reach_the_handler_if_they_decode() -> None:
    peer = started()
    handlers = Handlers(initialize=INFO)
    serve_harness_sdk(peer.transport, handlers, validate=False)
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {**ROUTE, "cwd": 5}})
    peer.send({"jsonrpc": "2.0", "id": 2, "method": "initialize"})
    # The refusal goes out at once, from the read loop; the handler's answer after it runs.
    refused = await peer.output.next_message()
    assert "result" in await peer.output.next_message()
    assert refused["error"]["code"] == -32602
    assert [v["pointer"] for v in refused["error"]["data"]] == [""]
    assert len(handlers.calls) == 1


async def test_notify_writes_the_dataclass_as_its_wire_params() -> None:
    peer = started()
    server = serve_harness_sdk(peer.transport, Handlers())
    await server.notify_session_status(SessionStatusNotification(session_id="s", status="idle"))
    assert await peer.output.next_message() == STATUS


async def test_dispose_unregisters_the_handlers() -> None:
    peer = started()
    server = serve_harness_sdk(peer.transport, Handlers(shutdown=ShutdownResult()))
    server.dispose()
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
    assert (await peer.output.next_message())["error"]["code"] == -32601
    serve_harness_sdk(peer.transport, Handlers())  # the methods are free again


async def test_serving_registers_every_handler_or_none() -> None:
    peer = started()
    peer.transport.on_request("shutdown", lambda params, context: {})
    with pytest.raises(ValueError, match="shutdown"):
        serve_harness_sdk(peer.transport, Handlers())
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": ROUTE})
    assert (await peer.output.next_message())["error"]["code"] == -32601


def test_invalid_params_error_carries_the_violations_as_wire_objects() -> None:
    error = invalid_params_error([Violation(pointer="/model", message="unknown model")])
    assert error.to_error_object() == {
        "code": -32602,
        "message": "Invalid params",
        "data": [{"pointer": "/model", "message": "unknown model"}],
    }
