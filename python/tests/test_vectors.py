"""The shared golden vectors (test-vectors/, format in its README), run through the real
`JsonRpcLineTransport` over in-memory streams and through the generated peers: the Python twin of
`packages/protocol/test/vectors.test.ts`. Test ids are the case's path, so a failure names the
file to open."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dsh_sdk import jsonlib
from dsh_sdk._gen import models
from dsh_sdk._gen.validators import validate_protocol_frame
from dsh_sdk.codec import decode, encode
from vectors.cases import (
    FrameLine,
    IdlMethod,
    JsonObject,
    VectorCase,
    dumps,
    frame_class_name,
    json_equal,
    list_cases,
    method_by_wire_name,
    read_frames,
    read_json,
    relative_pointers,
    suite,
    without_jsonrpc,
)
from vectors.exchanges import (
    check_exchange_frames,
    read_envelopes,
    run_against_client_end,
    run_against_server_end,
)
from vectors.frames import (
    deliver_to_client_end,
    deliver_to_server_end,
    refuse_through_binding,
    send_from_server_end,
)
from vectors.framing import chunkings, mentioned_methods, run_read_case, write_lines
from vectors.schema import frame_problems, member_of, member_violations

# Every test fails on an error the event loop would only log.
pytestmark = pytest.mark.usefixtures("no_loop_errors")

KNOWN_FAILURES: dict[str, str] = {}
"""Cases the current code fails, by `<case id> [<aspect>]`, each with the bug it shows. The vector
is the spec: the entry goes when the bug is fixed (`strict=True` then reports the fix, so the list
cannot go stale)."""


def cases(folder: str, aspect: str) -> list[Any]:
    """The cases of a folder as parameters whose id is the case's path; known failures xfail."""
    params = []
    for case in list_cases(suite(folder)):
        reason = KNOWN_FAILURES.get(f"{case.id} [{aspect}]")
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


# --- framing/read --------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("framing/read", "read"))
async def test_framing_read(case: VectorCase, json_backend: str) -> None:
    data = case.wire_path.read_bytes()
    expectation: JsonObject = case.expectation()
    expected = [without_jsonrpc(m) for m in expectation["messages"]]
    inbound = [m for m in expected if "method" in m]
    responses = [m for m in expected if "method" not in m]
    requests = [m for m in expected if "id" in m and "method" in m]
    answers = [{"jsonrpc": "2.0", "id": m["id"], "result": None} for m in requests]
    refusals = [
        {"jsonrpc": "2.0", "id": r["id"], "error": {"code": r["code"], "message": r["message"]}}
        for r in expectation.get("refusals", [])
    ]
    methods = mentioned_methods(data, expectation)
    for mode, chunks in chunkings(data, expectation.get("splitAt")):
        seen = await run_read_case(expectation, chunks, methods)
        assert seen.reports == expectation["reports"], mode
        assert json_equal(seen.inbound, inbound), f"{mode}: delivered {dumps(seen.inbound)}"
        assert json_equal(seen.responses, responses), f"{mode}: settled {dumps(seen.responses)}"
        if mode == "fed byte by byte":
            assert json_equal(seen.all, expected), f"{mode}: observed {dumps(seen.all)}"
        results = [m for m in seen.answers if "error" not in m]
        errors = [m for m in seen.answers if "error" in m]
        assert json_equal(results, answers), f"{mode}: answered {dumps(seen.answers)}"
        assert errors == refusals, mode


# --- framing/write -------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("framing/write", "write"))
async def test_framing_write(case: VectorCase, json_backend: str) -> None:
    messages: list[Any] = read_json(case.wire_path)["write"]
    expected = case.expect_path.read_bytes()
    lines = expected.split(b"\n")
    assert lines.pop() == b"", "the expected bytes end with a newline"
    assert len(lines) == len(messages)
    for line, message in zip(lines, messages, strict=True):
        assert json_equal(json.loads(line), message), line
    actual = await write_lines(messages)
    assert actual.decode("utf-8", "backslashreplace") == expected.decode("utf-8")
    assert actual == expected


# --- messages/ and open-unions/ ------------------------------------------------------------


def method_of_frame(lines: list[FrameLine], line: FrameLine) -> IdlMethod | None:
    """A frame's method: its own, or for a response that of the request it answers."""
    if line.kind != "response":
        return method_by_wire_name(line.frame["method"])
    request = next(
        (r for r in lines if r.kind == "request" and json_equal(r.frame["id"], line.frame["id"])),
        None,
    )
    return None if request is None else method_by_wire_name(request.frame["method"])


def round_trip_problems(line: FrameLine, method: IdlMethod) -> list[str]:
    """Decoded into the generated dataclasses and encoded again, a frame and its payload give
    the same JSON; so does the JSON text written by the transport's library."""
    frame = line.frame
    problems = []
    if not json_equal(jsonlib.loads(jsonlib.dumps(frame)), frame):
        problems.append("jsonlib does not round-trip it")
    is_error = "error" in frame
    class_name = "ErrorResponseFrame" if is_error else frame_class_name(method, line.kind)
    again = encode(decode(getattr(models, class_name), frame))
    if not json_equal(again, frame):
        problems.append(f"{class_name} round-trips it as {dumps(again)}")
    member = member_of(line.kind)
    kind = method.result if line.kind == "response" else method.params
    if kind is not None and not is_error and member in frame:
        payload = encode(decode(kind, frame[member]))
        if not json_equal(payload, frame[member]):
            problems.append(f"{kind} round-trips the {member} as {dumps(payload)}")
    return problems


@pytest.mark.parametrize(
    "case", cases("messages", "valid frames") + cases("open-unions", "valid frames")
)
def test_delivered_frames_are_valid_and_round_trip(case: VectorCase) -> None:
    assert case.expectation()["outcome"] == "delivered"
    lines = read_frames(case.wire_path)
    request_ids = [line.frame["id"] for line in lines if line.kind == "request"]
    for line in lines:
        method = method_of_frame(lines, line)
        assert method is not None, f"{line.raw} belongs to no protocol method"
        if case.method is not None:
            assert method == case.method, f"{line.raw} is not of {case.method.method}"
        if line.kind == "response":
            assert any(json_equal(line.frame["id"], i) for i in request_ids), line.raw
        assert frame_problems(line.frame, method, line.kind) == [], line.raw
        assert round_trip_problems(line, method) == [], line.raw


@pytest.mark.parametrize(
    "case", cases("messages", "server end") + cases("open-unions", "server end")
)
async def test_delivered_through_the_server_end(case: VectorCase) -> None:
    lines = read_frames(case.wire_path)
    assert await deliver_to_server_end(lines) == []
    assert await send_from_server_end(lines) == []


@pytest.mark.parametrize(
    "case", cases("messages", "client end") + cases("open-unions", "client end")
)
async def test_delivered_through_the_client_end(case: VectorCase) -> None:
    assert await deliver_to_client_end(read_frames(case.wire_path)) == []


# --- invalid/ ------------------------------------------------------------------------------

OUTCOME_OF_KIND = {
    "request": "invalid-params",
    "notification": "dropped",
    "response": "protocol-error",
}


def single_frame(case: VectorCase) -> FrameLine:
    lines = read_frames(case.wire_path)
    assert len(lines) == 1, "an invalid case is one frame"
    return lines[0]


@pytest.mark.parametrize("case", cases("invalid", "schema"))
def test_invalid_frames_break_the_schema_at_the_expected_pointers(case: VectorCase) -> None:
    expectation = case.expectation()
    line = single_frame(case)
    assert case.method is not None
    assert expectation["outcome"] == OUTCOME_OF_KIND[line.kind]
    expected: list[str] = expectation["pointers"]
    assert len(set(expected)) == len(expected), "pointers are listed once each"
    pointers = {v.pointer for v in member_violations(line.frame, case.method, line.kind)}
    assert pointers == set(expected)
    if line.kind != "response":
        # The root accepts an invalid result as another method's response; params are tied to
        # their method, so the root must refuse these, at the payload's pointers among others.
        found = relative_pointers(
            [v.pointer for v in validate_protocol_frame(line.frame)], member_of(line.kind)
        )
        assert set(expected) <= set(found)


@pytest.mark.parametrize("case", cases("invalid", "binding"))
async def test_invalid_frames_are_refused_by_the_binding(case: VectorCase) -> None:
    expectation = case.expectation()
    line = single_frame(case)
    assert case.method is not None
    refusal = await refuse_through_binding(line, case.method)
    assert refusal.failures == []
    assert set(refusal.pointers or []) == set(expectation["pointers"])


# --- exchanges/ ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases("exchanges", "valid frames"))
def test_exchange_frames_are_valid(case: VectorCase) -> None:
    version = case.expectation().get("serverProtocolVersion")
    assert check_exchange_frames(read_envelopes(case.wire_path), version) == []


@pytest.mark.parametrize("case", cases("exchanges", "client end"))
async def test_exchange_against_the_client_end(case: VectorCase) -> None:
    assert await run_against_client_end(read_envelopes(case.wire_path)) == []


@pytest.mark.parametrize("case", cases("exchanges", "server end"))
async def test_exchange_against_the_server_end(case: VectorCase) -> None:
    envelopes = read_envelopes(case.wire_path)
    assert await run_against_server_end(envelopes, case.expectation()) == []
