"""Runs the conversations of test-vectors/exchanges/ with a scripted peer against the generated
client end and the generated server end (test-vectors/README.md, "exchanges"; the twin of
`helpers/vector-exchanges.ts`).

`ifOpen` marks a server message that must arrive unless the server's output ends first. The
generated ends run here over in-memory streams whose output never ends, so every such message
must arrive."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from dsh_sdk._gen.methods import METHODS
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.jsonlib import ABSENT
from vectors.cases import (
    IdlMethod,
    JsonObject,
    dumps,
    frame_kind,
    json_equal,
    method_by_wire_name,
    read_ndjson,
)
from vectors.ends import ClientEnd, ServerEnd, Tracked, answer_with, settle, settle_until, track
from vectors.ends import wire_value as wire_value_of
from vectors.patterns import Bindings, Match, match_pattern, resolve_pattern
from vectors.schema import frame_problems


@dataclass(frozen=True, slots=True)
class Envelope:
    sender: Literal["client", "server"]
    message: JsonObject
    if_open: bool = False


@dataclass(frozen=True, slots=True)
class Group:
    """Consecutive envelopes from one side."""

    sender: Literal["client", "server"]
    envelopes: list[Envelope]


def id_key(id_: object) -> str:
    return dumps(id_)


def read_envelopes(path: Path) -> list[Envelope]:
    """Reads an exchange, checking that every line is a well-formed envelope."""
    envelopes: list[Envelope] = []
    for index, (_, value) in enumerate(read_ndjson(path)):
        at = f"line {index + 1}"
        if not isinstance(value, dict):
            raise ValueError(f"{at}: an envelope is an object")
        extra = set(value) - {"from", "message", "ifOpen"}
        if extra:
            raise ValueError(f"{at}: unknown envelope members {sorted(extra)}")
        sender, message, if_open = value.get("from"), value.get("message"), value.get("ifOpen")
        if sender not in ("client", "server"):
            raise ValueError(f"{at}: from is client or server")
        if not isinstance(message, dict):
            raise ValueError(f"{at}: message is an object")
        if if_open is not None and (if_open is not True or sender != "server"):
            raise ValueError(f"{at}: ifOpen is only true, and only on server messages")
        envelopes.append(Envelope(sender, message, if_open is True))
    return envelopes


def groups_of(envelopes: list[Envelope]) -> list[Group]:
    groups: list[Group] = []
    for envelope in envelopes:
        if groups and groups[-1].sender == envelope.sender:
            groups[-1].envelopes.append(envelope)
        else:
            groups.append(Group(envelope.sender, [envelope]))
    return groups


def match_group(
    expected: list[Envelope], actual: list[Any], bindings: Bindings, ignore_notifications: bool
) -> Match:
    """Matches what one side wrote against a group: requests and notifications in the listed
    order, responses anywhere; with `ignore_notifications`, unlisted notifications are skipped."""
    current = bindings
    ordered = [e for e in expected if frame_kind(e.message) != "response"]
    responses = [e for e in expected if frame_kind(e.message) == "response"]
    position = 0
    for frame in actual:
        if not isinstance(frame, dict):
            return Match(None, f"not an object: {dumps(frame)}")
        if frame_kind(frame) == "response":
            found = next(
                (
                    (index, match)
                    for index, e in enumerate(responses)
                    if (match := match_pattern(e.message, frame, current)).is_match
                ),
                None,
            )
            if found is None or found[1].bindings is None:
                return Match(None, f"unexpected response {dumps(frame)}")
            current = found[1].bindings
            del responses[found[0]]
            continue
        wanted = ordered[position] if position < len(ordered) else None
        result = None if wanted is None else match_pattern(wanted.message, frame, current)
        if result is not None and result.bindings is not None:
            current = result.bindings
            position += 1
        elif not (ignore_notifications and frame_kind(frame) == "notification"):
            why = f": {result.reason}" if result is not None else ""
            return Match(None, f"unexpected {dumps(frame)}{why}")
    missing = [dumps(e.message) for e in [*ordered[position:], *responses]]
    if missing:
        return Match(None, f"missing {', '.join(missing)}")
    return Match(current)


async def run_against_client_end(envelopes: list[Envelope]) -> list[str]:
    """The generated client end against a scripted server: the client sends each client
    message, the script answers, and every response and notification must reach the
    application."""
    failures: list[str] = []
    end = ClientEnd()
    bindings: Bindings = {}
    calls: dict[str, Tracked] = {}
    written = 0
    for group in groups_of(envelopes):
        if group.sender == "client":
            tracked = []
            for envelope in group.envelopes:
                message = envelope.message
                params = (
                    resolve_pattern(message["params"], bindings) if "params" in message else ABSENT
                )
                tracked.append(track(end.call(message["method"], params)))
            await settle_until(end.has_sent(written + len(tracked)))
            frames = end.sent[written:]
            written += len(frames)
            result = match_group(group.envelopes, frames, bindings, False)
            if result.bindings is None:
                failures.append(f"the client wrote: {result.reason}")
                break
            bindings = result.bindings
            for frame, call in zip(frames, tracked, strict=False):
                calls[id_key(frame["id"])] = call
            continue
        notifications: list[list[Any]] = []
        responses: list[JsonObject] = []
        for envelope in group.envelopes:
            frame = resolve_pattern(envelope.message, bindings)
            end.send(frame)
            if frame_kind(frame) == "response":
                responses.append(frame)
            else:
                notifications.append([frame["method"], frame.get("params")])

        await settle_until(_delivered_and_settled(end, len(notifications), responses, calls))
        delivered = [[d.method, d.params] for d in end.delivered]
        end.delivered.clear()
        if not json_equal(delivered, notifications):
            failures.append(
                f"subscribers got {dumps(delivered)}, the script sent {dumps(notifications)}"
            )
        for response in responses:
            failures += _check_settled(response, calls)
    if end.diagnostics:
        failures.append(f"diagnostics: {end.diagnostics}")
    await end.close()
    return failures


def _delivered_and_settled(
    end: ClientEnd, count: int, responses: list[JsonObject], calls: dict[str, Tracked]
) -> Callable[[], bool]:
    """Whether `count` notifications reached subscribers and every call the responses answer
    settled."""

    def is_done() -> bool:
        pending = [calls.get(id_key(response["id"])) for response in responses]
        settled = all(call.is_settled for call in pending if call is not None)
        return len(end.delivered) >= count and settled

    return is_done


def _check_settled(response: JsonObject, calls: dict[str, Tracked]) -> list[str]:
    call = calls.get(id_key(response["id"]))
    what = f"the call with id {dumps(response['id'])}"
    if call is None:
        return [f"{what} was never made"]
    if not call.is_settled:
        return [f"{what} did not settle"]
    if "result" in response:
        if call.error is not None:
            return [f"{what} raised {call.error!r}"]
        value = wire_value_of(call.value)
        if json_equal(value, response["result"]):
            return []
        return [f"{what} returned {dumps(value)}, sent {dumps(response['result'])}"]
    error = call.error
    if not isinstance(error, JsonRpcResponseError):
        return [f"{what} did not raise the error: {call.describe()}"]
    if json_equal(error.to_error_object(), response["error"]):
        return []
    return [f"{what} raised {dumps(error.to_error_object())}, sent {dumps(response['error'])}"]


async def run_against_server_end(envelopes: list[Envelope], expectation: JsonObject) -> list[str]:
    """The generated server end against a scripted client: handlers answer from the script, and
    what the server end writes must match each server group."""
    failures: list[str] = []
    bindings: Bindings = {}
    notified: set[int] = set()
    current: list[Envelope] = []

    async def answer(wire_name: str, params: object, context: RequestContext) -> Any:
        failures.extend(_refuse_invalid_params(wire_name, params, context.id))
        responses = [e for e in current if frame_kind(e.message) == "response"]
        mine = next(
            (
                e
                for e in responses
                if json_equal(resolve_pattern(e.message["id"], bindings), context.id)
            ),
            None,
        )
        if mine is None:
            failures.append(f"no scripted response for {wire_name} {dumps(context.id)}")
            raise RuntimeError("unscripted request")
        # The group's notifications before this response (all of them for the last response).
        stop = len(current) if mine is responses[-1] else _index_of(current, mine)
        for envelope in current[:stop]:
            if frame_kind(envelope.message) != "notification" or id(envelope) in notified:
                continue
            notified.add(id(envelope))
            frame = resolve_pattern(envelope.message, bindings)
            await end.notify(frame["method"], frame["params"])
        return answer_with(resolve_pattern(mine.message, bindings))

    end = ServerEnd(answer, expectation.get("serverProtocolVersion"))
    written = 0
    groups = groups_of(envelopes)
    ignore = expectation.get("ignoreNotifications") is True
    for index, group in enumerate(groups):
        if group.sender == "client":
            following = groups[index + 1] if index + 1 < len(groups) else None
            current = following.envelopes if following and following.sender == "server" else []
            for envelope in group.envelopes:
                end.send(resolve_pattern(envelope.message, bindings))
            continue
        await settle_until(end.has_sent(written + len(group.envelopes)))
        frames = end.sent[written:]
        written += len(frames)
        result = match_group(group.envelopes, frames, bindings, ignore)
        if result.bindings is None:
            failures.append(f"the server end wrote: {result.reason}")
            break
        bindings.update(result.bindings)
    await settle(20)
    sent = end.sent
    if len(sent) > written:
        failures.append(f"extra output {dumps(sent[written:])}")
    if end.diagnostics:
        failures.append(f"diagnostics: {end.diagnostics}")
    await end.close()
    return failures


def _index_of(envelopes: list[Envelope], wanted: Envelope) -> int:
    return next(i for i, e in enumerate(envelopes) if e is wanted)


def _refuse_invalid_params(wire_name: str, params: object, id_: object) -> list[str]:
    """A handler that runs for params breaking the schema means the binding failed to refuse
    them."""
    method = method_by_wire_name(wire_name)
    if method is None:
        return [f"a handler ran for the unknown method {wire_name}"]
    frame: JsonObject = {"jsonrpc": "2.0", "id": id_, "method": wire_name}
    if params is not ABSENT:
        frame["params"] = params
    problems = frame_problems(frame, method, "request")
    if not problems:
        return []
    return [f"the {wire_name} handler ran for params breaking the schema: {problems}"]


def _refused_ids(envelopes: list[Envelope]) -> set[str]:
    """Ids of the requests an exchange shows refused with `-32602`: their params may break the
    schema."""
    ids: set[str] = set()
    for envelope in envelopes:
        error = envelope.message.get("error")
        if isinstance(error, dict) and error.get("code") == -32602:
            ids.add(id_key(envelope.message["id"]))
    return ids


def _as_read_by(frame: JsonObject, version: int | None) -> JsonObject:
    """A client request as a server playing `version` reads it: params members introduced later
    removed."""
    params = frame.get("params")
    if version is None or not isinstance(params, dict):
        return frame
    info = next((m for m in METHODS if m.wire_name == frame.get("method")), None)
    newer = {
        n for n, since in (info.params_members_since if info else {}).items() if since > version
    }
    if not newer:
        return frame
    return {**frame, "params": {k: v for k, v in params.items() if k not in newer}}


def check_exchange_frames(
    envelopes: list[Envelope], server_protocol_version: int | None = None
) -> list[str]:
    """Checks that every message of a protocol method, with its placeholders resolved as a
    scripted side would send them, is a valid frame (a request answered `-32602` excepted), and
    that each goes the method's direction."""
    failures: list[str] = []
    bindings: Bindings = {}
    requests: dict[str, IdlMethod | None] = {}
    refused = _refused_ids(envelopes)
    for index, envelope in enumerate(envelopes):
        at = f"line {index + 1}"
        frame = resolve_pattern(envelope.message, bindings)
        if envelope.sender == "client":
            frame = _as_read_by(frame, server_protocol_version)
        kind = frame_kind(frame)
        if kind == "request" and id_key(envelope.message["id"]) in refused:
            requests[id_key(frame["id"])] = method_by_wire_name(frame["method"])
            continue
        if kind == "response":
            if id_key(frame["id"]) not in requests:
                failures.append(f"{at}: answers no earlier request")
            method = requests.get(id_key(frame["id"]))
            if "error" not in frame and method is None:
                continue
            problems = frame_problems(frame, None if "error" in frame else method, kind)
        else:
            method = method_by_wire_name(frame["method"])
            if kind == "request":
                requests[id_key(frame["id"])] = method
            direction = "clientToServer" if envelope.sender == "client" else "serverToClient"
            if method is not None and method.direction != direction:
                failures.append(f"{at}: sent the wrong way")
            if method is None:
                if kind != "request":
                    failures.append(f"{at}: {frame['method']} is no notification")
                continue
            problems = frame_problems(frame, method, kind)
        failures += [f"{at}: {problem}" for problem in problems]
    return failures
