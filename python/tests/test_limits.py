"""The transport against the protocol's limits: lines nested deeper than MAX_NESTING_DEPTH, numbers
outside ±MAX_SAFE_INTEGER in the members it reads, and handler results it cannot send. The twin of
`packages/protocol/test/limits.test.ts` and `nesting.test.ts`."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsh_sdk import codec, jsonlib
from dsh_sdk._gen.constants import MAX_NESTING_DEPTH, ErrorCode
from dsh_sdk._gen.models import SessionEventNotification
from dsh_sdk._gen.validators import validate_session_event_notification
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.nesting import (
    NestingTooDeepError,
    dumps_frame,
    exceeds_nesting_depth,
    read_top_level,
    scan,
)
from transport_support import MemoryPeer, settle

# Every test fails on an error the event loop would only log; each runs on each JSON backend.
pytestmark = pytest.mark.usefixtures("no_loop_errors", "json_backend")


def params_of_depth(depth: int) -> Any:
    """A value whose line, as `params` of a frame (level 1), nests `depth` levels in all."""
    value: Any = "leaf"
    for level in range(2, depth + 1):
        value = {"a": value} if level % 2 else [value]
    return value


LIMIT = MAX_NESTING_DEPTH
TOO_DEEP_ANSWER = f"Invalid request: the frame is nested deeper than {MAX_NESTING_DEPTH} levels"
CANNOT_SEND = f"cannot send a message nested deeper than {MAX_NESTING_DEPTH} levels"


def depth_of(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(depth_of, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(depth_of, value.values()), default=0)
    return 0


TRICKY = st.text(alphabet='{}[]"\\a é')


def nested(depth: int) -> st.SearchStrategy[Any]:
    if depth == 0:
        return TRICKY | st.integers() | st.none()
    return st.tuples(nested(depth - 1), TRICKY, st.booleans()).map(
        lambda t: [t[1], t[0]] if t[2] else {t[1]: t[0], "k": t[1]}
    )


ANY_DEPTH = st.integers(0, MAX_NESTING_DEPTH + 3).flatmap(nested)


# --- the scan ------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(ANY_DEPTH)
def test_the_scan_finds_the_depth_of_any_json_text_strings_not_counted(value: Any) -> None:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert scan(text)[0] == depth_of(value)
    assert scan(text.encode())[0] == depth_of(value)


def test_the_scan_counts_what_the_definition_says_on_text_that_is_not_json() -> None:
    assert scan("[[[")[0] == 3
    assert scan("]]][[")[0] == 2
    assert scan('"[[[')[0] == 0
    assert scan('"\\"[[["[')[0] == 1
    assert scan('"\\\\"[[')[0] == 2
    assert scan('{"a":[1,2]}')[1] == [[5, 10]]
    assert scan('{"a":[1,')[1] == [[5, -1]]


@settings(max_examples=500, deadline=None)
@given(
    ANY_DEPTH.map(lambda v: json.dumps(v, separators=(",", ":")))
    | st.text(alphabet='{}[]"\\x', max_size=200),
    st.integers(1, 8),
)
def test_exceeds_nesting_depth_agrees_with_the_scan(text: str, limit: int) -> None:
    assert exceeds_nesting_depth(text, limit) is (scan(text)[0] > limit)
    assert exceeds_nesting_depth(text.encode(), limit) is (scan(text)[0] > limit)


def test_exceeds_nesting_depth_takes_the_limit_of_the_protocol() -> None:
    at = "[" * MAX_NESTING_DEPTH + "]" * MAX_NESTING_DEPTH
    assert not exceeds_nesting_depth(at)
    assert exceeds_nesting_depth(f"[{at}]")


def test_read_top_level_replaces_the_deep_members_with_null() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    line = f'{{"jsonrpc":"2.0","id":7,"method":"m","params":{{"a":{deep}}}}}'
    assert read_top_level(line) == {"jsonrpc": "2.0", "id": 7, "method": "m", "params": None}
    assert read_top_level(f'{{"params":{deep},"\\u0069d":"x","method":"m"}}') == {
        "params": None,
        "id": "x",
        "method": "m",
    }
    assert read_top_level('{"id":1,"method":"m","params":' + "[" * 100) is None
    assert read_top_level('{"id":1,"method":"m","params":[[1 2]]') is None
    assert read_top_level('{"id":1,"method":"m"} [[[]]]') is None


# --- a line nested deeper than the limit ---------------------------------------------------


async def test_a_line_is_delivered_at_the_limit_and_reported_one_level_deeper() -> None:
    peer = MemoryPeer()
    received: list[Any] = []
    peer.transport.on_notification("n", lambda params, context: received.append(params))
    peer.transport.on_request("r", lambda params, context: "handled")
    peer.transport.start()
    peer.send(
        {"jsonrpc": "2.0", "method": "n", "params": params_of_depth(MAX_NESTING_DEPTH)},
        {"jsonrpc": "2.0", "method": "n", "params": params_of_depth(MAX_NESTING_DEPTH + 1)},
        {"jsonrpc": "2.0", "id": "r1", "method": "r", "params": params_of_depth(LIMIT)},
        {"jsonrpc": "2.0", "id": "r2", "method": "r", "params": params_of_depth(LIMIT + 1)},
    )
    await settle()
    assert received == [params_of_depth(MAX_NESTING_DEPTH)]
    assert [(d.reason, d.line, d.method, d.id) for d in peer.diagnostics] == [
        ("nesting-too-deep", 2, "n", None),
        ("nesting-too-deep", 4, "r", "r2"),
    ]
    assert peer.output.messages() == [
        {"jsonrpc": "2.0", "id": "r1", "result": "handled"},
        {"jsonrpc": "2.0", "id": "r2", "error": {"code": -32600, "message": TOO_DEEP_ANSWER}},
    ]


async def test_a_line_however_deep_is_answered_and_reading_goes_on() -> None:
    peer = MemoryPeer()
    peer.transport.on_request("echo", lambda params, context: params)
    peer.transport.start()
    depth = 200_000
    deep = "[" * depth + "]" * depth
    peer.send_raw(f'{{"jsonrpc":"2.0","id":1,"method":"echo","params":{deep}}}\n'.encode())
    peer.send({"jsonrpc": "2.0", "id": 2, "method": "echo", "params": "after"})
    await settle()
    assert peer.output.messages() == [
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": TOO_DEEP_ANSWER}},
        {"jsonrpc": "2.0", "id": 2, "result": "after"},
    ]
    assert peer.reasons() == ["nesting-too-deep"]
    assert peer.transport.state == "open"


async def test_too_deep_comes_before_invalid_json_and_an_unreadable_top_level_is_not_answered() -> (
    None
):
    peer = MemoryPeer()
    peer.transport.on_request("echo", lambda params, context: params)
    peer.transport.start()
    opened = "[" * (MAX_NESTING_DEPTH + 1)
    closed = opened + "]" * (MAX_NESTING_DEPTH + 1)
    peer.send_raw(f"{opened}\n".encode())
    peer.send_raw(f'{{"jsonrpc":"2.0","id":1,"method":"echo","params":{opened}}}\n'.encode())
    peer.send_raw(f'{{"jsonrpc":"2.0","id":null,"method":"echo","params":[{closed}]}}\n'.encode())
    peer.send_raw(f'{{"jsonrpc":"2.0","id":3,"result":{closed}}}\n'.encode())
    await settle()
    assert [(d.reason, d.id) for d in peer.diagnostics] == [
        ("nesting-too-deep", None),
        ("nesting-too-deep", None),
        ("nesting-too-deep", None),
        ("nesting-too-deep", 3),
    ]
    assert peer.output.messages() == []


# --- numbers in the members the transport reads --------------------------------------------


async def test_an_id_outside_the_safe_range_is_invalid_id_and_never_answered() -> None:
    peer = MemoryPeer()
    peer.transport.on_request("r", lambda params, context: "handled")
    peer.transport.start()
    for id_ in ("9007199254740992", "-9007199254740993", "1e400", "9007199254740991", "-0.5"):
        peer.send_raw(f'{{"jsonrpc":"2.0","id":{id_},"method":"r"}}\n'.encode())
    await settle()
    assert [(d.reason, d.line) for d in peer.diagnostics] == [
        ("invalid-id", 1),
        ("invalid-id", 2),
        ("invalid-id", 3),
    ]
    message = "id must be a string or a number, got a number out of range"
    assert peer.diagnostics[0].message == message
    assert peer.output.messages() == [
        {"jsonrpc": "2.0", "id": 9007199254740991, "result": "handled"},
        {"jsonrpc": "2.0", "id": -0.5, "result": "handled"},
    ]


async def test_an_error_code_outside_the_safe_range_makes_the_response_invalid_message() -> None:
    peer = MemoryPeer()
    peer.transport.start()
    peer.send_raw(b'{"jsonrpc":"2.0","id":1,"error":{"code":9007199254740993,"message":"x"}}\n')
    await settle()
    assert [(d.reason, d.id) for d in peer.diagnostics] == [("invalid-message", 1)]


# --- what the transport refuses to send ----------------------------------------------------


async def test_a_request_or_notification_nested_too_deep_fails_where_it_is_sent() -> None:
    peer = MemoryPeer()
    peer.transport.start()
    deep = params_of_depth(MAX_NESTING_DEPTH + 1)
    with pytest.raises(NestingTooDeepError, match=CANNOT_SEND):
        await peer.transport.request("r", deep)
    with pytest.raises(ValueError, match=CANNOT_SEND):
        await peer.transport.notify("n", deep)
    await peer.transport.notify("n", params_of_depth(MAX_NESTING_DEPTH))
    assert peer.output.messages() == [
        {"jsonrpc": "2.0", "method": "n", "params": params_of_depth(MAX_NESTING_DEPTH)}
    ]
    assert peer.transport.state == "open"


class Unencodable:
    """Not a JSON value."""


async def test_a_result_it_cannot_send_is_answered_internal_error_from_any_handler() -> None:
    peer = MemoryPeer()
    too_deep = {"a": params_of_depth(MAX_NESTING_DEPTH)}  # one level more inside `result`
    stack_breaker: Any = None
    for _ in range(20_000):
        stack_breaker = [stack_breaker]
    results: dict[str, Any] = {
        "too_deep": too_deep,
        "stack_breaker": stack_breaker,
        "not_json": Unencodable(),
        "big_int": 2**80,  # encodable; the receiving validators hold it to the range
    }
    for name, result in results.items():

        def sync(params: Any, context: RequestContext, result: Any = result) -> Any:
            return result

        async def later(params: Any, context: RequestContext, result: Any = result) -> Any:
            return result

        peer.transport.on_request(f"sync/{name}", sync)
        peer.transport.on_request(f"async/{name}", later)
    peer.transport.on_request("echo", lambda params, context: params)
    peer.transport.start()
    ids = 0
    for kind in ("sync", "async"):
        for name in results:
            ids += 1
            peer.send({"jsonrpc": "2.0", "id": ids, "method": f"{kind}/{name}"})
    peer.send({"jsonrpc": "2.0", "id": "last", "method": "echo", "params": "still open"})
    await settle()
    answers = {message["id"]: message for message in peer.output.messages()}
    assert len(answers) == ids + 1
    for id_ in (1, 2, 3, 5, 6, 7):
        assert answers[id_]["error"]["code"] == ErrorCode.INTERNAL_ERROR
        assert isinstance(answers[id_]["error"]["message"], str)
    assert answers[1]["error"] == {"code": -32603, "message": CANNOT_SEND}
    assert answers[4] == {"jsonrpc": "2.0", "id": 4, "result": 2**80}
    assert answers[8] == {"jsonrpc": "2.0", "id": 8, "result": 2**80}
    assert answers["last"] == {"jsonrpc": "2.0", "id": "last", "result": "still open"}
    assert peer.transport.state == "open"


async def test_an_error_a_handler_raises_that_the_peer_would_drop_is_answered_internal_error() -> (
    None
):
    class Unprintable(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text either")

    def bad_code(params: Any, context: RequestContext) -> Any:
        raise JsonRpcResponseError(2**60, "too big a code")

    def unprintable(params: Any, context: RequestContext) -> Any:
        raise Unprintable()

    peer = MemoryPeer()
    peer.transport.on_request("badCode", bad_code)
    peer.transport.on_request("unprintable", unprintable)
    peer.transport.start()
    peer.send({"jsonrpc": "2.0", "id": 1, "method": "badCode"})
    peer.send({"jsonrpc": "2.0", "id": 2, "method": "unprintable"})
    await settle()
    first, second = peer.output.messages()
    assert first == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32603,
            "message": f"the handler's error is not a JSON-RPC error (code {2**60})",
        },
    }
    assert second == {
        "jsonrpc": "2.0",
        "id": 2,
        "error": {"code": -32603, "message": "Unprintable"},
    }


# --- below the limit, nothing recursive overflows -------------------------------------------


def tool_results_to_the_limit() -> dict[str, Any]:
    """A `session.event` frame exactly MAX_NESTING_DEPTH deep through the IDL's own recursion
    (tool-result blocks in each other's content), with open content at the bottom."""
    block: Any = {"type": "text", "text": "t", "extra": [[{"n": 9007199254740991}]]}
    depth = 8  # frame, params, event, data, delta, the text block and its extra member's 3 levels
    while depth + 2 <= LIMIT:
        block = {"type": "tool-result", "toolCallId": "c", "content": [block]}
        depth += 2
    data = {"turn": 0, "step": 0, "delta": block}
    event = {"type": "assistant/chunk", "seq": 1, "time": 1, "data": data}
    frame = {
        "jsonrpc": "2.0",
        "method": "session.event",
        "params": {"sessionId": "s", "event": event},
    }
    assert depth_of(frame) == LIMIT
    return frame


def test_at_the_limit_validation_conversion_and_encoding_have_room_to_spare() -> None:
    """Every recursive path runs on a frame at the limit from a stack that already holds half of
    the interpreter's recursion limit, so none of them is anywhere near a RecursionError."""
    frame = tool_results_to_the_limit()
    params = frame["params"]
    line = jsonlib.dumps_line(frame)

    def with_stack_used(frames: int) -> None:
        if frames > 0:
            with_stack_used(frames - 1)
            return
        assert not exceeds_nesting_depth(line)
        assert jsonlib.loads(line) == frame
        assert validate_session_event_notification(params) == []
        decoded = codec.decode(SessionEventNotification, params)
        assert codec.encode(decoded) == params
        assert jsonlib.loads(dumps_frame(frame)) == frame

    with_stack_used(sys.getrecursionlimit() // 2)
