"""A bystander's view of a connection, in the trace format (docs/trace-format.md).

The Python twin of `packages/protocol/src/trace-recorder.ts`: the same records, members, findings
and violations, so a trace recorded here reads exactly like one recorded by `dsh-sdk trace`. Lines
are split by the protocol's `LineReader`, classified by `classify_message` and checked with the
generated validators and method table.
"""

from __future__ import annotations

import base64
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from dsh_sdk import jsonlib
from dsh_sdk._gen.constants import (
    DEFAULT_MAX_FRAME_BYTES,
    IDL_VERSION,
    MAX_NESTING_DEPTH,
    WireMessage,
    format_message,
)
from dsh_sdk._gen.methods import METHODS, MethodInfo
from dsh_sdk._gen.validators import PARAMS_VALIDATORS, RESULT_VALIDATORS
from dsh_sdk.classify import (
    ERROR_RESPONSE,
    NOTIFICATION,
    REQUEST,
    JsonRpcId,
    MalformedMessage,
    classify_message,
)
from dsh_sdk.diagnostics import line_rejection_message
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.line_reader import LineReader, LineRejection, utf8_length
from dsh_sdk.nesting import SHORT_LINE_CHARS, exceeds_nesting_depth, read_top_level
from dsh_sdk.validation_runtime import Validator

__all__ = [
    "TRACE_FORMAT",
    "TRACE_FORMAT_VERSION",
    "TraceDirection",
    "TraceFindingContext",
    "TraceRecorder",
]

TRACE_FORMAT: Final = "dsh-sdk-trace"
"""The `format` member of every trace's header."""
TRACE_FORMAT_VERSION: Final = 1
"""The version of the trace format written here; readers refuse a header with a newer one."""

TraceDirection = Literal["clientToServer", "serverToClient"]
"""Which way a frame went, in the IDL's words."""

Finding = dict[str, Any]
"""A finding as recorded: `{"reason", "message", "violations"?}`."""

DEFAULT_HEAD_BYTES: Final = 1024
DEFAULT_MAX_PENDING: Final = 65_536
_DIRECTIONS: Final[tuple[TraceDirection, TraceDirection]] = ("clientToServer", "serverToClient")
_METHOD_INFO: Final[dict[str, MethodInfo]] = {info.wire_name: info for info in METHODS}
_NEWLINE: Final = re.compile(b"\n")


@dataclass(frozen=True, slots=True)
class TraceFindingContext:
    """Where a finding was made, for a reader of the recorder's reports."""

    dir: TraceDirection
    seq: int
    """The frame's `seq`."""
    line: int
    """The frame's line in its direction's stream (0 for a finding about no single line)."""
    method: str | None = None
    id: JsonRpcId | None = None


@dataclass(frozen=True, slots=True)
class _Pending:
    seq: int
    t: float
    method: str


def _other(direction: TraceDirection) -> TraceDirection:
    return "serverToClient" if direction == "clientToServer" else "clientToServer"


def _id_key(id_: JsonRpcId) -> tuple[str, JsonRpcId]:
    """A pending-request key that keeps `"1"` and `1` apart, and `1` and `1.0` together, as
    JavaScript does."""
    return ("s", id_) if isinstance(id_, str) else ("n", id_)


def _js_number(value: Any) -> Any:
    """An integral float as JavaScript writes it (`1`, not `1.0`); anything else unchanged."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _round_ms(ms: float) -> float | int:
    rounded = round(ms * 1000) / 1000
    return int(rounded) if rounded.is_integer() else rounded


class _Direction:
    """One direction's line reader, plus the first bytes of the line in progress: the protocol's
    `LineReader` reports a dropped line by its size, and a trace also keeps what it began with."""

    __slots__ = ("ended", "frames", "head", "head_bytes", "pending", "reader")

    def __init__(self, max_frame_bytes: int, head_bytes: int) -> None:
        # The kept `\r` gives each line's exact size; it is dropped from what is recorded.
        self.reader = LineReader(max_frame_bytes, keep_cr=True)
        self.head_bytes = head_bytes
        self.head = b""
        """The first `head_bytes` bytes of the unfinished line."""
        self.pending: dict[tuple[str, JsonRpcId], _Pending] = {}
        self.frames = 0
        self.ended = False

    def heads(self, chunk: bytes, had_pending: bool, count: int) -> list[bytes]:
        """The first bytes of each of the `count` lines `chunk` completed (found only when one of
        them was dropped, so the common path scans nothing twice)."""
        limit = self.head_bytes
        ends = [match.start() for match in _NEWLINE.finditer(chunk)][:count]
        heads: list[bytes] = []
        start = 0
        for index, end in enumerate(ends):
            if index == 0 and had_pending:
                heads.append((self.head + chunk[: min(end, limit)])[:limit])
            else:
                heads.append(chunk[start : min(end, start + limit)])
            start = end + 1
        return heads

    def keep_head(self, chunk: bytes) -> None:
        """Remembers the first bytes of the line `chunk` leaves unfinished."""
        last = chunk.rfind(b"\n")
        if last >= 0:
            self.head = chunk[last + 1 : last + 1 + self.head_bytes]
        elif len(self.head) < self.head_bytes:
            self.head += chunk[: self.head_bytes - len(self.head)]


class TraceRecorder:
    """Records both directions of one connection as trace records (docs/trace-format.md).

    Feed it every chunk after forwarding it: `push` never changes, holds or delays the bytes, it
    only reads them. Memory is bounded by the frame limit and `max_pending_requests`. `write`
    receives every record, in order, as one compact JSON text without its `\\n`; `on_finding`
    every finding as it is made (the record holding it is written right after).
    """

    def __init__(
        self,
        *,
        write: Callable[[str], None],
        recorder: str,
        command: Sequence[str] | None = None,
        on_finding: Callable[[Finding, TraceFindingContext], None] | None = None,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        head_bytes: int = DEFAULT_HEAD_BYTES,
        max_pending_requests: int = DEFAULT_MAX_PENDING,
        now: Callable[[], float] | None = None,
    ) -> None:
        if isinstance(head_bytes, bool) or not isinstance(head_bytes, int) or head_bytes < 0:
            raise ValueError(f"head_bytes must be a non-negative integer, got {head_bytes!r}")
        self._write = write
        self._on_finding = on_finding
        self._now = now if now is not None else (lambda: time.perf_counter() * 1000)
        self._t0 = self._now()
        self._max_pending = max_pending_requests
        self._max_frame_bytes = max_frame_bytes
        self._directions = {
            direction: _Direction(max_frame_bytes, head_bytes) for direction in _DIRECTIONS
        }
        self._seq = 0
        self._findings = 0
        self._chunk_time: float | int = 0
        self._finished = False
        header: dict[str, Any] = {
            "type": "header",
            "format": TRACE_FORMAT,
            "version": TRACE_FORMAT_VERSION,
            "protocolVersion": IDL_VERSION,
            "startedAt": int(time.time() * 1000),
            "recorder": recorder,
        }
        if command is not None:
            header["command"] = list(command)
        header["maxFrameBytes"] = max_frame_bytes
        header["headBytes"] = head_bytes
        write(jsonlib.dumps(header))

    @property
    def finding_count(self) -> int:
        """Findings so far, all records together."""
        return self._findings

    def push(self, direction: TraceDirection, chunk: bytes) -> None:
        """Records the frames a chunk completes. Call it after forwarding the chunk."""
        state = self._directions[direction]
        if self._finished or state.ended or not chunk:
            return
        self._chunk_time = self._elapsed()
        reader = state.reader
        had_pending = reader.pending_bytes > 0
        entries = reader.feed(chunk)
        if entries:
            first_line = reader.line_count - len(entries) + 1
            heads: list[bytes] | None = None
            for index, entry in enumerate(entries):
                if entry.__class__ is str:
                    if entry:
                        self._accept_line(direction, entry, first_line + index)
                    continue
                if heads is None:
                    heads = state.heads(chunk, had_pending, len(entries))
                self._reject_line(direction, entry, heads[index])  # type: ignore[arg-type]
        state.keep_head(chunk)

    def end_of_stream(self, direction: TraceDirection) -> None:
        """One direction's stream ended: a last line without `\\n` is recorded as
        `truncated-frame` (or `frame-too-large`)."""
        state = self._directions[direction]
        if self._finished or state.ended:
            return
        self._chunk_time = self._elapsed()
        for rejection in state.reader.end():
            self._reject_line(direction, rejection, state.head)
        state.ended = True
        record = {"type": "end-of-stream", "t": self._chunk_time, "dir": direction}
        self._write(jsonlib.dumps(record))

    def finish(
        self,
        *,
        exit_code: int | None = None,
        signal: str | None = None,
        pid: int | None = None,
        launcher: Mapping[str, object] | None = None,
        spawn_error: str | None = None,
    ) -> None:
        """Ends the recording: unanswered requests become findings, then the `exit` record.
        `pid`, `launcher` (`pid`, `command`, `exitCode`, `signal`) and `spawn_error` are written
        when given (docs/trace-format.md). Idempotent."""
        if self._finished:
            return
        for direction in _DIRECTIONS:
            self.end_of_stream(direction)
        self._finished = True
        t = self._elapsed()
        for direction in _DIRECTIONS:
            pending = self._directions[direction].pending
            for request in pending.values():
                self._report_unanswered(
                    direction, request, t, "no response came before the recording ended"
                )
            pending.clear()
        exit_record: dict[str, object] = {
            "type": "exit",
            "t": t,
            "exitCode": exit_code,
            "signal": signal,
            "frames": {d: self._directions[d].frames for d in _DIRECTIONS},
            "findings": self._findings,
        }
        if pid is not None:
            exit_record["pid"] = pid
        if launcher is not None:
            exit_record["launcher"] = dict(launcher)
        if spawn_error is not None:
            exit_record["spawnError"] = spawn_error
        self._write(jsonlib.dumps(exit_record))

    def _elapsed(self) -> float | int:
        return _round_ms(self._now() - self._t0)

    def _reject_line(
        self, direction: TraceDirection, rejection: LineRejection, head: bytes
    ) -> None:
        message = line_rejection_message(rejection.reason, self._max_frame_bytes)
        finding = {"reason": rejection.reason, "message": message}
        content = '"head":' + jsonlib.dumps(base64.b64encode(head).decode("ascii"))
        self._write_frame(direction, rejection.line, rejection.bytes, {}, [finding], content)

    def _accept_line(self, direction: TraceDirection, text: str, line: int) -> None:
        size = utf8_length(text)
        if text[-1:] == "\r":
            text = text[:-1]
        # The transports' order: too deep comes first, a short line's only when it fails to parse.
        if len(text) > SHORT_LINE_CHARS and exceeds_nesting_depth(text):
            self._record_deep_line(direction, text, line, size)
            return
        try:
            value = jsonlib.loads(text)
        except (ValueError, RecursionError) as error:
            if exceeds_nesting_depth(text):
                self._record_deep_line(direction, text, line, size)
                return
            finding = {"reason": "invalid-json", "message": f"{WireMessage.INVALID_JSON}: {error}"}
            self._write_frame(direction, line, size, {}, [finding], '"text":' + jsonlib.dumps(text))
            return
        facts: dict[str, Any] = {}
        findings: list[Finding] = []
        self._check(direction, value, facts, findings)
        # Valid JSON holds no raw `\n`, so the line goes into the record as it came, unless a bare
        # `\r` (insignificant whitespace) would break readers that also split on `\r` (SSE).
        json_text = jsonlib.dumps(value) if "\r" in text else text
        self._write_frame(direction, line, size, facts, findings, '"json":' + json_text)

    def _record_deep_line(self, direction: TraceDirection, text: str, line: int, size: int) -> None:
        """A line nested deeper than the limit, kept as text: the transports never parse it. A
        request whose top level reads is tracked, since the transport answers it (`-32600`)."""
        facts: dict[str, Any] = {}
        findings: list[Finding] = [
            {
                "reason": "nesting-too-deep",
                "message": format_message(WireMessage.NESTING_TOO_DEEP, limit=MAX_NESTING_DEPTH),
            }
        ]
        top = read_top_level(text)
        if isinstance(top, dict) and classify_message(top) == REQUEST:
            facts.update(kind=REQUEST, method=top["method"], id=_js_number(top["id"]))
            self._track(direction, top["id"], top["method"], findings)
        elif isinstance(top, dict) and classify_message(top) == NOTIFICATION:
            facts.update(kind=NOTIFICATION, method=top["method"])
        self._write_frame(direction, line, size, facts, findings, '"text":' + jsonlib.dumps(text))

    def _check(
        self, direction: TraceDirection, value: Any, facts: dict[str, Any], findings: list[Finding]
    ) -> None:
        kind = classify_message(value)
        if isinstance(kind, MalformedMessage):
            findings.append({"reason": kind.reason, "message": kind.detail})
            if kind.method is not None:
                facts["method"] = kind.method
            if kind.id is not None:
                facts["id"] = _js_number(kind.id)
            return
        if kind in (REQUEST, NOTIFICATION):
            method: str = value["method"]
            params = value.get("params", ABSENT)
            facts["kind"] = kind
            facts["method"] = method
            if kind == REQUEST:
                facts["id"] = _js_number(value["id"])
            self._check_method(direction, method, kind, params, findings)
            if kind == REQUEST:
                self._track(direction, value["id"], method, findings)
            return
        id_: JsonRpcId = value["id"]
        facts["kind"] = "error" if kind == ERROR_RESPONSE else "result"
        facts["id"] = _js_number(id_)
        pending = self._directions[_other(direction)].pending
        request = pending.pop(_id_key(id_), None)
        if request is None:
            findings.append(
                {
                    "reason": "unknown-response-id",
                    "message": f"no pending request has id {jsonlib.dumps(_js_number(id_))}",
                }
            )
            return
        facts["method"] = request.method
        facts["request"] = request.seq
        facts["latencyMs"] = _round_ms(self._chunk_time - request.t)
        if kind != ERROR_RESPONSE:
            validate = RESULT_VALIDATORS.get(request.method)
            if validate is not None:
                _push_violations(
                    findings,
                    "invalid-result",
                    f"the result of {request.method} breaks the schema",
                    validate,
                    value["result"],
                )

    def _check_method(
        self,
        direction: TraceDirection,
        method: str,
        kind: str,
        params: object,
        findings: list[Finding],
    ) -> None:
        info = _METHOD_INFO.get(method)
        if info is None:
            findings.append(
                {"reason": "unknown-method", "message": f"the IDL has no method {method}"}
            )
            return
        if info.direction != direction:
            message = f"{method} goes {info.direction}, but was sent {direction}"
            findings.append({"reason": "wrong-direction", "message": message})
        if info.kind != kind:
            message = f"{method} is a {info.kind}, sent as a {kind}"
            findings.append({"reason": "wrong-kind", "message": message})
        # A method without params takes absent params too (WIRE.md §8: `shutdown`).
        if params is ABSENT and info.params_type is None:
            return
        reason = "invalid-params" if info.kind == "request" else "invalid-notification-params"
        _push_violations(
            findings,
            reason,
            f"{method} params break the schema",
            PARAMS_VALIDATORS[info.wire_name],
            params,
        )

    def _track(
        self, direction: TraceDirection, id_: JsonRpcId, method: str, findings: list[Finding]
    ) -> None:
        pending = self._directions[direction].pending
        key = _id_key(id_)
        if key in pending:
            findings.append(
                {
                    "reason": "duplicate-request-id",
                    "message": f"id {jsonlib.dumps(_js_number(id_))} is already used by a "
                    "pending request",
                }
            )
        pending[key] = _Pending(self._seq, self._chunk_time, method)
        if len(pending) <= self._max_pending:
            return
        # Memory stays bounded: the oldest request is given up on, with a report.
        oldest_key = next(iter(pending))
        oldest = pending.pop(oldest_key)
        message = f"no longer tracked: more than {self._max_pending} requests are pending"
        self._report_unanswered(direction, oldest, self._chunk_time, message)

    def _report_unanswered(
        self, direction: TraceDirection, request: _Pending, t: float | int, why: str
    ) -> None:
        finding = {
            "reason": "unanswered-request",
            "message": f"{request.method} (frame {request.seq}): {why}",
        }
        self._findings += 1
        if self._on_finding is not None:
            context = TraceFindingContext(direction, request.seq, 0, request.method)
            self._on_finding(finding, context)
        record = {
            "type": "finding",
            "t": t,
            "dir": direction,
            "frame": request.seq,
            "finding": finding,
        }
        self._write(jsonlib.dumps(record))

    def _write_frame(
        self,
        direction: TraceDirection,
        line: int,
        size: int,
        facts: dict[str, Any],
        findings: list[Finding],
        content: str,
    ) -> None:
        seq = self._seq
        self._seq += 1
        self._directions[direction].frames += 1
        record: dict[str, Any] = {
            "type": "frame",
            "seq": seq,
            "dir": direction,
            "t": self._chunk_time,
            "line": line,
            "bytes": size,
            **facts,
        }
        if findings:
            record["findings"] = findings
            self._findings += len(findings)
            if self._on_finding is not None:
                context = TraceFindingContext(
                    direction, seq, line, facts.get("method"), facts.get("id")
                )
                for finding in findings:
                    self._on_finding(finding, context)
        meta = jsonlib.dumps(record)
        self._write(f"{meta[:-1]},{content}}}")


def _push_violations(
    findings: list[Finding], reason: str, what: str, validate: Validator, value: object
) -> None:
    violations = validate(value)
    if not violations:
        return
    listed = [{"pointer": v.pointer, "message": v.message} for v in violations]
    summary = "; ".join(f"{v['pointer'] or '/'} {v['message']}" for v in listed)
    findings.append({"reason": reason, "message": f"{what}: {summary}", "violations": listed})
