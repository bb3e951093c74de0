"""JsonRpcLineTransport over in-memory streams and socket pairs (the IDL's `meta.description`)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest

from dsh_sdk._gen.constants import ErrorCode
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.errors import JsonRpcResponseError, RequestTimeoutError, TransportClosedError
from dsh_sdk.inbound_handlers import NotificationContext, RequestContext
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.transport import JsonRpcLineTransport
from transport_support import (
    LIVE_TRANSPORTS,
    MemoryPeer,
    eventually,
    settle,
)

# Every test fails on an error the event loop would only log; each runs on each JSON backend.
pytestmark = pytest.mark.usefixtures("no_loop_errors", "json_backend")


async def started_peer(**options: Any) -> MemoryPeer:
    peer = MemoryPeer(**options)
    peer.transport.start()
    return peer


# --- outbound requests ---------------------------------------------------------------------


async def test_a_request_resolves_with_the_result_of_its_response() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("initialize", {"cwd": "/"}))
    sent = await peer.output.next_message()
    assert sent == {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"cwd": "/"}}
    peer.send({"jsonrpc": "2.0", "id": 1, "result": {"ok": True}})
    assert await call == {"ok": True}


async def test_request_ids_count_from_one_and_absent_params_are_omitted() -> None:
    peer = await started_peer()
    first = asyncio.ensure_future(peer.transport.request("shutdown"))
    second = asyncio.ensure_future(peer.transport.request("shutdown", None))
    assert await peer.output.next_message() == {"jsonrpc": "2.0", "id": 1, "method": "shutdown"}
    assert await peer.output.next_message() == {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "shutdown",
        "params": None,
    }
    peer.send({"id": 2, "result": {}}, {"id": 1, "result": None})
    assert await first is None
    assert await second == {}


async def test_the_written_line_is_compact_and_keeps_non_ascii_raw() -> None:
    peer = await started_peer()
    await peer.transport.notify("note", {"text": "héllo 世界", "lone": "\ud800", "n": [1, 2]})
    line = bytes(peer.output.data)
    assert (
        line
        == (
            '{"jsonrpc":"2.0","method":"note","params":{"text":"héllo 世界","lone":"\\ud800",'
            '"n":[1,2]}}\n'
        ).encode()
    )


async def test_an_error_response_raises_json_rpc_response_error_with_code_message_and_data() -> (
    None
):
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("session/prompt", {}))
    await peer.output.next_message()
    violations = [{"pointer": "/sessionId", "message": "is required"}]
    peer.send({"id": 1, "error": {"code": -32602, "message": "Invalid params", "data": violations}})
    with pytest.raises(JsonRpcResponseError) as caught:
        await call
    assert (caught.value.code, caught.value.wire_message, caught.value.data) == (
        -32602,
        "Invalid params",
        violations,
    )
    assert caught.value.message == "Invalid params: /sessionId: is required"
    assert caught.value.has_data


async def test_an_error_response_without_data_keeps_data_absent_and_null_data_present() -> None:
    peer = await started_peer()
    without = asyncio.ensure_future(peer.transport.request("a"))
    with_null = asyncio.ensure_future(peer.transport.request("b"))
    await settle()
    peer.send(
        {"id": 1, "error": {"code": -32002, "message": "Not initialized"}},
        {"id": 2, "error": {"code": -32603.0, "message": "boom", "data": None}},
    )
    with pytest.raises(JsonRpcResponseError) as absent:
        await without
    assert absent.value.data is ABSENT and not absent.value.has_data
    with pytest.raises(JsonRpcResponseError) as null:
        await with_null
    assert null.value.data is None and null.value.has_data
    assert null.value.code == -32603 and type(null.value.code) is int


async def test_a_response_id_written_as_a_float_matches_like_in_javascript() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("a"))
    await settle()
    peer.send_raw(b'{"jsonrpc":"2.0","id":1.0,"result":7}\n')
    assert await call == 7


async def test_a_response_with_a_string_id_does_not_match_a_numeric_request() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("a"))
    await settle()
    peer.send({"id": "1", "result": "wrong"})
    await eventually(lambda: peer.reasons() == ["unknown-response-id"])
    assert peer.diagnostics[0].id == "1"
    assert peer.diagnostics[0].line == 1
    assert not call.done()
    peer.send({"id": 1, "result": "right"})
    assert await call == "right"


async def test_a_response_nobody_waits_for_is_reported_as_unknown_response_id() -> None:
    peer = await started_peer()
    peer.send({"jsonrpc": "2.0", "id": 42, "result": {}})
    await eventually(lambda: len(peer.diagnostics) == 1)
    diagnostic = peer.diagnostics[0]
    assert (diagnostic.reason, diagnostic.id, diagnostic.line) == ("unknown-response-id", 42, 1)
    assert diagnostic.bytes == len(b'{"jsonrpc":"2.0","id":42,"result":{}}')


async def test_a_timed_out_request_raises_and_its_late_response_is_reported() -> None:
    peer = await started_peer()
    with pytest.raises(RequestTimeoutError) as caught:
        await peer.transport.request("slow", timeout=0.05)
    assert (caught.value.method, caught.value.id, caught.value.timeout) == ("slow", 1, 0.05)
    peer.send({"id": 1, "result": "late"})
    await eventually(lambda: peer.reasons() == ["unknown-response-id"])


async def test_a_request_whose_caller_is_cancelled_is_forgotten() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("a"))
    await peer.output.next_message()
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    peer.send({"id": 1, "result": "late"})
    await eventually(lambda: peer.reasons() == ["unknown-response-id"])


async def test_a_negative_timeout_is_refused() -> None:
    peer = await started_peer()
    with pytest.raises(ValueError):
        await peer.transport.request("a", timeout=-1)


async def test_params_that_json_cannot_hold_raise_type_error_and_leave_the_transport_open() -> None:
    peer = await started_peer()
    with pytest.raises(TypeError):
        await peer.transport.request("a", {"when": object()})
    assert peer.transport.state == "open"
    assert peer.output.data == b""


# --- inbound requests ----------------------------------------------------------------------


async def test_a_request_without_a_handler_is_answered_method_not_found() -> None:
    peer = await started_peer()
    peer.send({"jsonrpc": "2.0", "id": 5, "method": "nope"})
    assert await peer.output.next_message() == {
        "jsonrpc": "2.0",
        "id": 5,
        "error": {"code": -32601, "message": "Method not found: nope"},
    }


async def test_sync_and_async_handlers_are_answered_with_their_result() -> None:
    peer = await started_peer()
    seen: list[tuple[Any, RequestContext]] = []

    def echo(params: Any, context: RequestContext) -> Any:
        seen.append((params, context))
        return params

    async def later(params: Any, context: RequestContext) -> Any:
        await asyncio.sleep(0)
        return {"later": params}

    peer.transport.on_request("echo", echo)
    peer.transport.on_request("later", later)
    peer.transport.on_request("nothing", lambda params, context: None)
    peer.send(
        {"jsonrpc": "2.0", "id": "a", "method": "echo", "params": [1, "x"]},
        {"jsonrpc": "2.0", "id": 0, "method": "later", "params": 3},
        {"jsonrpc": "2.0", "id": "", "method": "nothing"},
    )
    answers = [await peer.output.next_message() for _ in range(3)]
    assert sorted(answers, key=str) == sorted(
        [
            {"jsonrpc": "2.0", "id": "a", "result": [1, "x"]},
            {"jsonrpc": "2.0", "id": 0, "result": {"later": 3}},
            {"jsonrpc": "2.0", "id": "", "result": None},
        ],
        key=str,
    )
    _, context = seen[0]
    assert (context.method, context.id, context.line) == ("echo", "a", 1)
    assert context.bytes == len(b'{"jsonrpc":"2.0","id":"a","method":"echo","params":[1,"x"]}')
    assert not context.closed.is_set()


async def test_a_handler_sees_absent_params_as_absent() -> None:
    peer = await started_peer()
    seen: list[Any] = []
    peer.transport.on_request("a", lambda params, context: seen.append(params))
    peer.send({"id": 1, "method": "a"}, {"id": 2, "method": "a", "params": None})
    await eventually(lambda: len(seen) == 2)
    assert seen == [ABSENT, None]


async def test_a_handler_raising_json_rpc_response_error_chooses_the_error_exactly() -> None:
    peer = await started_peer()
    violations = [{"pointer": "/maxTokens", "message": "must be >= 1"}]

    def invalid(params: Any, context: RequestContext) -> Any:
        raise JsonRpcResponseError(ErrorCode.INVALID_PARAMS, "Invalid params", violations)

    async def not_initialized(params: Any, context: RequestContext) -> Any:
        raise JsonRpcResponseError(-32002, "Not initialized")

    peer.transport.on_request("initialize", invalid)
    peer.transport.on_request("session/prompt", not_initialized)
    peer.send({"id": 1, "method": "initialize"})
    assert await peer.output.next_message() == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32602, "message": "Invalid params", "data": violations},
    }
    peer.send({"id": 2, "method": "session/prompt"})
    assert await peer.output.next_message() == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32002, "message": "Not initialized"},
    }


async def test_a_handler_raising_anything_else_is_answered_internal_error_with_its_text() -> None:
    peer = await started_peer()

    def broken(params: Any, context: RequestContext) -> Any:
        raise RuntimeError("disk on fire")

    async def broken_later(params: Any, context: RequestContext) -> Any:
        raise KeyError("k")

    peer.transport.on_request("a", broken)
    peer.transport.on_request("b", broken_later)
    peer.send({"id": 1, "method": "a"})
    assert (await peer.output.next_message())["error"] == {
        "code": -32603,
        "message": "disk on fire",
    }
    peer.send({"id": 2, "method": "b"})
    assert (await peer.output.next_message())["error"] == {"code": -32603, "message": "'k'"}


async def test_a_result_json_cannot_hold_is_answered_internal_error() -> None:
    peer = await started_peer()
    peer.transport.on_request("a", lambda params, context: {"x": {1, 2}})
    peer.send({"id": 1, "method": "a"})
    answer = await peer.output.next_message()
    assert answer["id"] == 1 and answer["error"]["code"] == -32603


async def test_error_data_json_cannot_hold_is_answered_without_data() -> None:
    peer = await started_peer()

    def invalid(params: Any, context: RequestContext) -> Any:
        raise JsonRpcResponseError(-32602, "Invalid params", object())

    peer.transport.on_request("a", invalid)
    peer.send({"id": 1, "method": "a"})
    assert await peer.output.next_message() == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {"code": -32602, "message": "Invalid params"},
    }


async def test_a_float_request_id_is_echoed_as_javascript_writes_it() -> None:
    peer = await started_peer()
    peer.transport.on_request("a", lambda params, context: "ok")
    peer.send_raw(b'{"id":3.0,"method":"a"}\n{"id":2.5,"method":"a"}\n')
    await eventually(lambda: peer.output.data.count(b"\n") == 2)
    assert bytes(peer.output.data).splitlines() == [
        b'{"jsonrpc":"2.0","id":3,"result":"ok"}',
        b'{"jsonrpc":"2.0","id":2.5,"result":"ok"}',
    ]


async def test_a_slow_handler_does_not_block_reading_and_answers_go_out_as_they_finish() -> None:
    peer = await started_peer()
    release = asyncio.Event()
    notes: list[Any] = []

    async def slow(params: Any, context: RequestContext) -> Any:
        await release.wait()
        return "slow"

    peer.transport.on_request("slow", slow)
    peer.transport.on_request("fast", lambda params, context: "fast")
    peer.transport.on_notification("note", lambda params, context: notes.append(params))
    peer.send(
        {"id": 1, "method": "slow"},
        {"id": 2, "method": "fast"},
        {"method": "note", "params": "read while slow waits"},
    )
    assert await peer.output.next_message() == {"jsonrpc": "2.0", "id": 2, "result": "fast"}
    assert notes == ["read while slow waits"]
    release.set()
    assert await peer.output.next_message() == {"jsonrpc": "2.0", "id": 1, "result": "slow"}


async def test_a_second_handler_for_one_method_is_refused_and_unregistering_frees_it() -> None:
    peer = await started_peer()
    unregister = peer.transport.on_request("a", lambda params, context: 1)
    with pytest.raises(ValueError):
        peer.transport.on_request("a", lambda params, context: 2)
    unregister()
    peer.transport.on_request("a", lambda params, context: 2)
    peer.send({"id": 1, "method": "a"})
    assert (await peer.output.next_message())["result"] == 2


# --- inbound notifications -----------------------------------------------------------------


async def test_a_notification_reaches_its_handler_with_params_and_context() -> None:
    peer = await started_peer()
    seen: list[tuple[Any, NotificationContext]] = []
    peer.transport.on_notification("session.status", lambda p, c: seen.append((p, c)))
    peer.send_raw(b"\n")
    peer.send({"jsonrpc": "2.0", "method": "session.status", "params": {"status": "idle"}})
    peer.send({"method": "session.status"})
    await eventually(lambda: len(seen) == 2)
    (params, context), (absent, _) = seen
    assert params == {"status": "idle"} and absent is ABSENT
    assert (context.method, context.line) == ("session.status", 2)
    assert context.bytes == len(
        b'{"jsonrpc":"2.0","method":"session.status","params":{"status":"idle"}}'
    )
    assert peer.diagnostics == []


async def test_a_notification_without_a_handler_is_reported_as_unhandled() -> None:
    peer = await started_peer()
    peer.send({"jsonrpc": "2.0", "method": "subagent.started", "params": {}})
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "later"})
    await peer.output.next_message()
    reported = [(d.reason, d.message, d.line, d.method) for d in peer.diagnostics]
    message = "no handler is registered for subagent.started"
    assert reported == [("unhandled-notification", message, 1, "subagent.started")]


async def test_a_failing_notification_handler_is_reported_and_reading_goes_on() -> None:
    peer = await started_peer()
    seen: list[Any] = []

    def handler(params: Any, context: NotificationContext) -> None:
        if params == "bad":
            raise ValueError("cannot digest")
        seen.append(params)

    async def async_handler(params: Any, context: NotificationContext) -> None:
        raise LookupError("later failure")

    peer.transport.on_notification("n", handler)
    peer.transport.on_notification("m", async_handler)
    peer.send(
        {"method": "n", "params": "bad"},
        {"method": "n", "params": "good"},
        {"method": "m", "params": "x"},
    )
    await eventually(lambda: len(peer.diagnostics) == 2)
    assert seen == ["good"]
    first, second = peer.diagnostics
    assert (first.reason, first.method, first.line) == ("notification-handler-failed", "n", 1)
    assert isinstance(first.cause, ValueError) and "cannot digest" in first.message
    assert (second.reason, second.method, second.line) == ("notification-handler-failed", "m", 3)
    assert isinstance(second.cause, LookupError)


async def test_an_observer_that_raises_does_not_stop_the_stream() -> None:
    seen: list[Any] = []

    def observer(diagnostic: TransportDiagnostic) -> None:
        raise RuntimeError("observer bug")

    source = asyncio.StreamReader()
    peer = MemoryPeer()
    transport = JsonRpcLineTransport(source, peer.output, on_diagnostic=observer)
    LIVE_TRANSPORTS.append(transport)
    transport.on_notification("n", lambda params, context: seen.append(params))
    transport.start()
    source.feed_data(b"garbage\n" + b'{"method":"n","params":1}\n')
    await eventually(lambda: seen == [1])
    assert transport.diagnostic_counts == {"invalid-json": 1}


# --- malformed input -----------------------------------------------------------------------

MALFORMED_LINES = [
    pytest.param(b"not json", "invalid-json", id="not-json"),
    pytest.param(b'{"method":"n","params":NaN}', "invalid-json", id="nan"),
    pytest.param(b'{"method":"n","params":Infinity}', "invalid-json", id="infinity"),
    pytest.param(b'{"method":"n","params":"a\tb"}', "invalid-json", id="raw-control-character"),
    pytest.param(b'{"method":"n"} x', "invalid-json", id="trailing-garbage"),
    pytest.param(b"\xef\xbb\xbf{}", "invalid-json", id="byte-order-mark"),
    pytest.param(b'{"method":"\xff"}', "invalid-utf8", id="invalid-utf8"),
    pytest.param(b'"just a string"', "not-an-object", id="string"),
    pytest.param(b"null", "not-an-object", id="null"),
    pytest.param(b'[{"method":"n"}]', "batch-unsupported", id="batch"),
    pytest.param(b'{"id":null,"method":"n"}', "invalid-id", id="null-id"),
    pytest.param(b'{"id":true,"method":"n"}', "invalid-id", id="boolean-id"),
    pytest.param(b'{"id":{},"method":"n"}', "invalid-id", id="object-id"),
    pytest.param(b'{"id":[1],"method":"n"}', "invalid-id", id="array-id"),
    pytest.param(b'{"jsonrpc":"1.0","method":"n"}', "invalid-message", id="wrong-jsonrpc"),
    pytest.param(b'{"method":7}', "invalid-message", id="method-not-string"),
    pytest.param(b'{"params":{}}', "invalid-message", id="neither-id-nor-method"),
    pytest.param(b'{"id":1}', "invalid-message", id="response-without-result"),
    pytest.param(b'{"id":1,"result":1,"error":{}}', "invalid-message", id="result-and-error"),
    pytest.param(b'{"id":1,"error":{"code":"x","message":"m"}}', "invalid-message", id="bad-code"),
    pytest.param(
        b'{"id":1,"error":{"code":1.5,"message":"m"}}', "invalid-message", id="float-code"
    ),
]


@pytest.mark.parametrize(("line", "reason"), MALFORMED_LINES)
async def test_a_malformed_line_is_reported_never_answered_and_reading_goes_on(
    line: bytes, reason: str
) -> None:
    peer = await started_peer()
    seen: list[Any] = []
    peer.transport.on_notification("n", lambda params, context: seen.append(params))
    peer.transport.on_request("n", lambda params, context: "answered")
    peer.send_raw(b"\r\n" + line + b"\r\n" + b'{"method":"n","params":"after"}\n')
    await eventually(lambda: seen == ["after"])
    await settle()
    assert [(d.reason, d.line, d.bytes) for d in peer.diagnostics] == [(reason, 2, len(line) + 1)]
    assert peer.output.data == b""


async def test_an_invalid_json_line_is_reported_with_the_same_text_on_both_backends() -> None:
    peer = await started_peer()
    peer.send_raw(b'{"a":NaN}\n')
    await eventually(lambda: len(peer.diagnostics) == 1)
    # The message is the one every language's transport sends; the parser's words are the detail.
    assert peer.diagnostics[0].message == "the line is not JSON"
    assert peer.diagnostics[0].detail is not None
    assert "NaN is not valid JSON" in peer.diagnostics[0].detail


async def test_a_line_over_the_frame_limit_is_dropped_and_the_next_line_arrives() -> None:
    peer = await started_peer(max_frame_bytes=64)
    seen: list[Any] = []
    peer.transport.on_notification("n", lambda params, context: seen.append(params))
    big = b'{"method":"n","params":"' + b"x" * 100 + b'"}'
    peer.send_raw(big[:30])
    await settle()
    peer.send_raw(big[30:] + b'\n{"method":"n","params":"small"}\n')
    await eventually(lambda: seen == ["small"])
    assert [(d.reason, d.line, d.bytes) for d in peer.diagnostics] == [
        ("frame-too-large", 1, len(big))
    ]
    assert "64 bytes" in peer.diagnostics[0].message


async def test_a_lone_escaped_surrogate_is_accepted_as_javascript_does() -> None:
    peer = await started_peer()
    seen: list[Any] = []
    peer.transport.on_notification("n", lambda params, context: seen.append(params))
    peer.send_raw(b'{"method":"n","params":"\\ud800"}\n')
    await eventually(lambda: seen == ["\ud800"])


# --- lifecycle -----------------------------------------------------------------------------


async def test_a_request_before_start_is_refused_as_not_started() -> None:
    peer = MemoryPeer()
    with pytest.raises(TransportClosedError) as caught:
        await peer.transport.request("a")
    assert caught.value.reason == "not-started"
    with pytest.raises(TransportClosedError):
        await peer.transport.notify("a")


async def test_the_input_ending_fails_pending_requests_at_once_and_later_ones_immediately() -> None:
    peer = await started_peer()
    calls = [asyncio.ensure_future(peer.transport.request(name)) for name in ("a", "b")]
    await settle()
    peer.end()
    for call in calls:
        with pytest.raises(TransportClosedError) as caught:
            await call
        assert caught.value.reason == "input-ended"
    assert peer.transport.state == "closed"
    with pytest.raises(TransportClosedError) as later:
        await peer.transport.request("c")
    assert later.value.reason == "input-ended"
    assert (await peer.transport.wait_closed()).reason == "input-ended"


async def test_input_ending_mid_line_reports_a_truncated_frame_then_fails_pending() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("a"))
    await settle()
    peer.send_raw(b'{"jsonrpc":"2.0","id":1,"res')
    peer.end()
    with pytest.raises(TransportClosedError):
        await call
    assert [(d.reason, d.line, d.bytes) for d in peer.diagnostics] == [("truncated-frame", 1, 28)]


async def test_requests_answered_at_once_just_before_the_input_ends_are_still_answered() -> None:
    peer = await started_peer()
    peer.transport.on_request("echo", lambda params, context: params)
    peer.send({"id": 1, "method": "echo", "params": "a"}, {"id": 2, "method": "nope"})
    peer.end()
    await peer.transport.wait_closed()
    assert peer.output.messages() == [
        {"jsonrpc": "2.0", "id": 1, "result": "a"},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "Method not found: nope"}},
    ]


async def test_a_read_error_fails_pending_requests_as_input_error() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("a"))
    await settle()
    peer.input.set_exception(ConnectionResetError("reset by peer"))
    with pytest.raises(TransportClosedError) as caught:
        await call
    assert caught.value.reason == "input-error"
    assert "reset by peer" in str(caught.value)


async def test_close_fails_pending_requests_with_its_reason_and_leaves_the_streams_open() -> None:
    peer = await started_peer()
    call = asyncio.ensure_future(peer.transport.request("a"))
    await settle()
    await peer.transport.close("client shutting down")
    with pytest.raises(TransportClosedError) as caught:
        await call
    assert (caught.value.reason, str(caught.value)) == ("closed", "client shutting down")
    await peer.transport.close()  # idempotent
    assert peer.transport.state == "closed"
    assert not peer.input.at_eof() and peer.input.exception() is None
    peer.send_raw(b'{"method":"still"}\n')
    assert await peer.input.readline() == b'{"method":"still"}\n'  # nobody else is reading


async def test_close_stops_delivering_lines_already_buffered() -> None:
    peer = await started_peer()
    seen: list[Any] = []

    async def closing_handler(params: Any, context: NotificationContext) -> None:
        seen.append(params)
        await peer.transport.close()

    peer.transport.on_notification("n", closing_handler)
    peer.send({"method": "n", "params": 1})
    await eventually(lambda: peer.transport.state == "closed")
    peer.send({"method": "n", "params": 2})
    await settle()
    assert seen == [1]


async def test_a_write_failing_mid_chunk_stops_delivery_of_the_rest_of_the_chunk() -> None:
    peer = await started_peer()
    seen: list[Any] = []
    peer.transport.on_notification("n", lambda params, context: seen.append(params))
    peer.output.closing = True
    peer.send_raw(b'{"method":"n","params":1}\n{"id":1,"method":"x"}\n{"method":"n","params":2}\n')
    await eventually(lambda: peer.transport.state == "closed")
    await settle()
    assert seen == [1]
    assert peer.transport.close_error is not None
    assert peer.transport.close_error.reason == "output-error"


async def test_a_response_finished_after_close_is_not_written() -> None:
    peer = await started_peer()
    release = asyncio.Event()
    contexts: list[RequestContext] = []

    async def slow(params: Any, context: RequestContext) -> Any:
        contexts.append(context)
        await release.wait()
        return "too late"

    peer.transport.on_request("slow", slow)
    peer.send({"id": 1, "method": "slow"})
    await eventually(lambda: len(contexts) == 1)
    await peer.transport.close()
    assert contexts[0].closed.is_set()
    release.set()
    await settle()
    assert peer.output.data == b""


async def test_a_failed_write_fails_every_pending_request_and_later_ones_immediately() -> None:
    peer = await started_peer()
    first = asyncio.ensure_future(peer.transport.request("a"))
    await peer.output.next_message()
    peer.output.drain_error = BrokenPipeError(32, "Broken pipe")
    with pytest.raises(TransportClosedError) as caught:
        await peer.transport.request("b")
    assert caught.value.reason == "output-error"
    assert isinstance(caught.value.__cause__, BrokenPipeError)
    with pytest.raises(TransportClosedError):
        await first
    with pytest.raises(TransportClosedError) as later:
        await peer.transport.notify("c")
    assert later.value.reason == "output-error"


async def test_an_output_that_is_closing_fails_the_write() -> None:
    peer = await started_peer()
    peer.output.closing = True
    with pytest.raises(TransportClosedError) as caught:
        await peer.transport.notify("a")
    assert caught.value.reason == "output-error"
    assert peer.output.data == b""


async def test_close_releases_a_notify_waiting_for_drain() -> None:
    peer = await started_peer()
    peer.output.writable.clear()
    blocked = asyncio.ensure_future(peer.transport.notify("a"))
    queued = asyncio.ensure_future(peer.transport.notify("b"))
    await settle()
    assert not blocked.done() and not queued.done()
    await peer.transport.close()
    for call in (blocked, queued):
        with pytest.raises(TransportClosedError):
            await call
    assert peer.output.messages() == [{"jsonrpc": "2.0", "method": "a"}]


async def test_report_diagnostic_counts_and_forwards_reports_from_bindings() -> None:
    peer = await started_peer()
    report = TransportDiagnostic(
        reason="invalid-notification-params",
        message="session.status params break the schema",
        line=3,
        bytes=10,
        method="session.status",
    )
    peer.transport.report_diagnostic(report)
    assert peer.diagnostics == [report]
    assert peer.transport.diagnostic_counts == {"invalid-notification-params": 1}


# --- over real sockets ---------------------------------------------------------------------


async def open_socket_pair() -> tuple[
    tuple[asyncio.StreamReader, asyncio.StreamWriter],
    tuple[asyncio.StreamReader, asyncio.StreamWriter],
]:
    left, right = socket.socketpair()
    return await asyncio.open_connection(sock=left), await asyncio.open_connection(sock=right)


async def test_two_transports_talk_to_each_other_over_a_socket_pair() -> None:
    (left_in, left_out), (right_in, right_out) = await open_socket_pair()
    client = JsonRpcLineTransport(left_in, left_out)
    server = JsonRpcLineTransport(right_in, right_out)
    events: list[Any] = []
    client.on_notification("session.event", lambda params, context: events.append(params))

    async def prompt(params: Any, context: RequestContext) -> Any:
        await server.notify("session.event", {"seq": 0})
        return {"messageId": "m-1"}

    server.on_request("session/prompt", prompt)
    client.start()
    server.start()
    assert await client.request("session/prompt", {"sessionId": "s"}) == {"messageId": "m-1"}
    assert events == [{"seq": 0}]
    with pytest.raises(JsonRpcResponseError) as caught:
        await client.request("unknown")
    assert caught.value.code == ErrorCode.METHOD_NOT_FOUND
    await client.close()
    await server.close()
    left_out.close()
    right_out.close()
    await left_out.wait_closed()
    await right_out.wait_closed()


async def test_a_peer_that_stops_reading_makes_notify_wait_for_drain() -> None:
    (left_in, left_out), (right_in, right_out) = await open_socket_pair()
    sender = JsonRpcLineTransport(left_in, left_out)
    sender.start()
    payload = "x" * 65536

    async def flood() -> int:
        sent = 0
        while sent < 400:  # 26 MB: far more than the socket buffers hold
            await sender.notify("bulk", payload)
            sent += 1
        return sent

    task = asyncio.ensure_future(flood())
    await asyncio.sleep(0.2)
    assert not task.done()
    assert left_out.transport.get_write_buffer_size() <= 2 * 65536 + len(payload) + 100
    received = 0
    while received < 400:
        line = await _read_line(right_in)
        assert line.startswith(b'{"jsonrpc":"2.0","method":"bulk"')
        received += 1
    assert await task == 400
    await sender.close()
    left_out.close()
    right_out.close()
    await left_out.wait_closed()
    await right_out.wait_closed()


async def _read_line(reader: asyncio.StreamReader) -> bytes:
    parts: list[bytes] = []
    while True:
        try:
            return b"".join(parts) + await reader.readuntil(b"\n")
        except asyncio.LimitOverrunError as overrun:
            parts.append(await reader.readexactly(overrun.consumed))
