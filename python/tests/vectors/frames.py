"""Runs the frames of messages/, open-unions/ and invalid/ through the generated ends
(test-vectors/README.md): what each end must deliver, write or refuse (the twin of
`helpers/vector-frames.ts`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.peer_support import ProtocolError
from vectors.cases import (
    FrameLine,
    IdlMethod,
    dumps,
    json_equal,
    method_by_wire_name,
    response_to,
    type_examples,
)
from vectors.ends import ClientEnd, ServerEnd, answer_with, settle_until, track, wire_value


def method_of(line: FrameLine) -> IdlMethod:
    method = method_by_wire_name(line.frame.get("method"))
    if method is None:
        raise AssertionError(f"vector: {line.frame.get('method')} is not a protocol method")
    return method


async def deliver_to_server_end(lines: list[FrameLine]) -> list[str]:
    """Requests reach the server end's handler with the wire params; it writes the paired
    response, and nothing else."""
    requests = [line for line in lines if line.kind == "request"]
    if not requests:
        return []
    failures: list[str] = []

    def answer(wire_name: str, params: object, context: RequestContext) -> Any:
        request = next((r for r in requests if json_equal(r.frame["id"], context.id)), None)
        response = None if request is None else response_to(lines, request)
        if response is None:
            raise AssertionError(f"vector: nothing answers id {dumps(context.id)}")
        return answer_with(response.frame)

    end = ServerEnd(answer)
    for request in requests:
        end.feed_line(request.raw)
    await settle_until(lambda: len(end.sent) >= len(requests))
    for index, request in enumerate(requests):
        method = method_of(request)
        call = end.calls[index] if index < len(end.calls) else None
        if call is None or call.method != method.method:
            failures.append(f"handler call {index} was {call}")
        elif method.params is not None and not json_equal(call.params, request.frame["params"]):
            failures.append(f"the {method.method} handler got {dumps(call.params)}")
        elif method.params is not None and type(call.value).__name__ != method.params:
            failures.append(f"the {method.method} handler got a {type(call.value).__name__}")
    if len(end.calls) != len(requests):
        failures.append(f"{len(end.calls)} handler calls for {len(requests)} requests")
    expected = [_paired(lines, request) for request in requests]
    if not json_equal(end.sent, expected):
        failures.append(f"the server end wrote {dumps(end.sent)}, expected {dumps(expected)}")
    if end.diagnostics:
        failures.append(f"diagnostics: {end.diagnostics}")
    await end.close()
    return failures


def _paired(lines: list[FrameLine], request: FrameLine) -> Any:
    response = response_to(lines, request)
    return None if response is None else response.frame


async def deliver_to_client_end(lines: list[FrameLine]) -> list[str]:
    """The client end: each request is sent by its generated method and settled by the paired
    response; each notification reaches a subscriber with the wire params, nothing reported."""
    failures: list[str] = []
    end = ClientEnd()
    for line in lines:
        if line.kind == "response":
            continue
        if line.kind == "request":
            failures += await _call_and_settle(end, lines, line)
            continue
        end.feed_line(line.raw)
        await settle_until(lambda: len(end.delivered) > 0)
        delivered, end.delivered[:] = list(end.delivered), []
        method = method_of(line)
        seen = [[d.method, d.params] for d in delivered]
        if not json_equal(seen, [[method.method, line.frame.get("params")]]):
            failures.append(f"subscribers got {dumps(seen)} for {line.raw}")
        elif type(delivered[0].value).__name__ != method.params:
            failures.append(f"the subscriber got a {type(delivered[0].value).__name__}")
    if end.diagnostics:
        failures.append(f"diagnostics: {end.diagnostics}")
    await end.close()
    return failures


async def _call_and_settle(end: ClientEnd, lines: list[FrameLine], request: FrameLine) -> list[str]:
    method = method_of(request)
    before = len(end.sent)
    call = track(end.call(method.method, request.frame.get("params", ABSENT)))
    await settle_until(lambda: len(end.sent) > before)
    sent = end.sent
    written = sent[before] if len(sent) > before else None
    failures: list[str] = []
    takes_params = method.params is not None
    if (
        not isinstance(written, dict)
        or written.get("method") != method.method
        or (takes_params and not json_equal(written.get("params"), request.frame.get("params")))
        or (not takes_params and "params" in written)
    ):
        failures.append(f"the client wrote {dumps(written)} for {request.raw}")
    response = response_to(lines, request)
    if response is None or not isinstance(written, dict):
        return [*failures, f"vector: nothing answers {request.raw}"]
    end.send({**response.frame, "id": written["id"]})
    await settle_until(lambda: call.is_settled)
    frame = response.frame
    if "result" in frame:
        if call.error is not None or not json_equal(wire_value(call.value), frame["result"]):
            failures.append(f"the call {call.describe()}, expected result {dumps(frame['result'])}")
    elif not isinstance(call.error, JsonRpcResponseError) or not json_equal(
        call.error.to_error_object(), frame["error"]
    ):
        failures.append(f"the call {call.describe()}, expected error {dumps(frame['error'])}")
    return failures


async def send_from_server_end(lines: list[FrameLine]) -> list[str]:
    """Notifications sent through the generated notify methods are written as the wire frames."""
    notifications = [line for line in lines if line.kind == "notification"]
    if not notifications:
        return []

    def refuse(wire_name: str, params: object, context: RequestContext) -> Any:
        raise AssertionError("no request expected")

    end = ServerEnd(refuse)
    for line in notifications:
        await end.notify(line.frame["method"], line.frame["params"])
    await settle_until(lambda: len(end.sent) >= len(notifications))
    expected = [line.frame for line in notifications]
    sent = end.sent
    await end.close()
    if json_equal(sent, expected):
        return []
    return [f"the server end wrote {dumps(sent)}, expected {dumps(expected)}"]


@dataclass(slots=True)
class Refusal:
    """What a binding reported for a frame that breaks the schema."""

    pointers: list[str] | None = None
    """The pointers of the violations it reported, if it reported any."""
    failures: list[str] = field(default_factory=list)
    """Everything else that went wrong."""


async def refuse_through_binding(line: FrameLine, method: IdlMethod) -> Refusal:
    """Runs an invalid frame through the end that must refuse it (README: "invalid")."""
    if line.kind == "request":
        return await _refuse_request(line)
    if line.kind == "notification":
        return await _refuse_notification(line)
    return await _refuse_response(line, method)


async def _refuse_request(line: FrameLine) -> Refusal:
    def answer(wire_name: str, params: object, context: RequestContext) -> Any:
        raise AssertionError("the handler ran")

    end = ServerEnd(answer)
    end.feed_line(line.raw)
    await settle_until(lambda: len(end.sent) > 0)
    await end.close()
    refusal = Refusal()
    if end.calls:
        refusal.failures.append(f"the handler ran: {end.calls}")
    sent = end.sent
    if len(sent) != 1:
        refusal.failures.append(f"wrote {dumps(sent)}")
        return refusal
    response = sent[0]
    if not json_equal(response.get("id"), line.frame["id"]):
        refusal.failures.append(f"answered id {dumps(response.get('id'))}")
    error = response.get("error")
    if not isinstance(error, dict) or error.get("code") != -32602:
        refusal.failures.append(f"answered {dumps(response)}")
        return refusal
    data = error.get("data")
    if not isinstance(data, list) or not all(
        isinstance(v, dict)
        and isinstance(v.get("pointer"), str)
        and isinstance(v.get("message"), str)
        for v in data
    ):
        refusal.failures.append(f"data is {dumps(data)}")
        return refusal
    refusal.pointers = [v["pointer"] for v in data]
    return refusal


async def _refuse_notification(line: FrameLine) -> Refusal:
    end = ClientEnd()
    end.feed_line(line.raw)
    await settle_until(lambda: len(end.diagnostics) > 0)
    await end.close()
    refusal = Refusal()
    if end.delivered:
        refusal.failures.append(f"a subscriber got {end.delivered}")
    reports = end.diagnostics
    if len(reports) != 1 or reports[0].reason != "invalid-notification-params":
        refusal.failures.append(f"reported {reports}")
        return refusal
    report = reports[0]
    if report.method != line.frame["method"]:
        refusal.failures.append(f"reported for {report.method}")
    if report.line != 1 or report.bytes != len(line.raw.encode("utf-8")):
        refusal.failures.append(f"reported line {report.line} of {report.bytes} bytes")
    refusal.pointers = [v.pointer for v in report.violations or ()]
    return refusal


async def _refuse_response(line: FrameLine, method: IdlMethod) -> Refusal:
    end = ClientEnd()
    # Sent first, with the IDL's example params (if the method takes any), so that its id is 1.
    examples = type_examples(method.params)
    call = track(end.call(method.method, examples[0] if examples else ABSENT))
    await settle_until(lambda: len(end.sent) > 0)
    refusal = Refusal()
    sent_id = end.sent[0].get("id") if end.sent else None
    if sent_id != 1 or line.frame.get("id") != 1:
        refusal.failures.append(f"ids: sent {sent_id}, the vector answers {line.frame.get('id')}")
    end.feed_line(line.raw)
    await settle_until(lambda: call.is_settled)
    await end.close()
    error = call.error
    if not isinstance(error, ProtocolError):
        refusal.failures.append(f"the call {call.describe()}")
        return refusal
    if error.method != method.method:
        refusal.failures.append(f"the protocol error names {error.method}")
    refusal.pointers = [v.pointer for v in error.violations]
    return refusal
