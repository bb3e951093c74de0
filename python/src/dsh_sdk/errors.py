"""The errors of the transport; the same names as `packages/protocol/src/errors.ts`."""

from __future__ import annotations

from typing import Any, Final, Literal

from dsh_sdk._gen.constants import ErrorCode, WireMessage, format_message
from dsh_sdk.classify import JsonRpcId
from dsh_sdk.jsonlib import ABSENT

__all__ = [
    "VIOLATIONS_IN_MESSAGE",
    "JsonRpcResponseError",
    "RequestTimeoutError",
    "TransportCloseReason",
    "TransportClosedError",
    "describe_response_error",
]


class JsonRpcResponseError(Exception):
    """An error response from the peer, or an error a handler raises to choose the response it
    sends (for example `-32602` with the list of violations).

    Keeps the wire `code`, `wire_message` and, only when there is one, `data`: `data` is
    `ABSENT` (falsy, not `None`) when the error has none, since `null` is a value `data` can
    have. `message` is for people: for a `-32602` it adds the first violations
    (`Invalid params: /model: model "gpt-9" is not served by echo`); see
    `describe_response_error`.
    """

    code: int
    message: str
    wire_message: str
    data: Any

    def __init__(self, code: int, message: str, data: Any = ABSENT) -> None:
        readable = describe_response_error(int(code), message, data)
        super().__init__(readable)
        self.code = int(code)
        self.message = readable
        self.wire_message = message
        self.data = data

    @property
    def has_data(self) -> bool:
        """True when the error carries `data` (possibly `None`, for a wire `null`)."""
        return self.data is not ABSENT

    @classmethod
    def from_error_object(cls, error: dict[str, Any]) -> JsonRpcResponseError:
        """Builds the error from a response's `error` member (checked by `classify_message`).
        An integral float code (`-32601.0`) becomes an int."""
        return cls(int(error["code"]), error["message"], error.get("data", ABSENT))

    def to_error_object(self) -> dict[str, Any]:
        """The `error` member of a response carrying this error; `data` only when present."""
        if self.data is ABSENT:
            return {"code": self.code, "message": self.wire_message}
        return {"code": self.code, "message": self.wire_message, "data": self.data}

    def __repr__(self) -> str:
        data = "" if self.data is ABSENT else f", data={self.data!r}"
        return f"JsonRpcResponseError({self.code}, {self.wire_message!r}{data})"

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"


VIOLATIONS_IN_MESSAGE: Final = 3
"""How many violations an error's `message` shows before saying how many more there are."""

_VIOLATION_SEPARATOR: Final = "; "


def describe_response_error(code: int, message: str, data: Any = ABSENT) -> str:
    """The readable message of an error response: the wire `message`, and for a `-32602` whose
    `data` is a violation list, its first `VIOLATIONS_IN_MESSAGE` violations (`pointer: reason`,
    the reason alone at the root pointer) joined by `; `, then `and N more`. The same text as
    `describeResponseError` in TypeScript (the IDL's `invalidParams` messages)."""
    if code != ErrorCode.INVALID_PARAMS or not _is_violation_list(data) or not data:
        return message
    shown = [
        reason
        if pointer == ""
        else format_message(WireMessage.VIOLATION_AT, pointer=pointer, reason=reason)
        for pointer, reason in ((v["pointer"], v["message"]) for v in data[:VIOLATIONS_IN_MESSAGE])
    ]
    hidden = len(data) - len(shown)
    if hidden > 0:
        shown.append(format_message(WireMessage.MORE_VIOLATIONS, count=hidden))
    return format_message(
        WireMessage.WITH_VIOLATIONS, message=message, violations=_VIOLATION_SEPARATOR.join(shown)
    )


def _is_violation_list(data: Any) -> bool:
    return isinstance(data, list) and all(
        isinstance(item, dict)
        and isinstance(item.get("pointer"), str)
        and isinstance(item.get("message"), str)
        for item in data
    )


TransportCloseReason = Literal[
    "closed", "not-started", "input-ended", "input-error", "output-error"
]
"""Why a transport stopped: `close()` was called; a call came before `start()`; the input ended
(the peer closed its output or exited); reading the input failed; writing failed (for example
`EPIPE`) or the output was closing."""


class TransportClosedError(Exception):
    """A request failed, or a call was refused, because the transport is not (or no longer)
    open. `reason` says what stopped it."""

    reason: TransportCloseReason

    def __init__(self, reason: TransportCloseReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __repr__(self) -> str:
        return f"TransportClosedError({self.reason!r}, {str(self)!r})"


class RequestTimeoutError(TimeoutError):
    """A request got no response within its `timeout` (seconds); its id is forgotten, so a late
    response is reported as `unknown-response-id`."""

    method: str
    id: JsonRpcId
    timeout: float

    def __init__(self, method: str, id: JsonRpcId, timeout: float) -> None:
        super().__init__(f"request {id} ({method}) got no response within {timeout:g} s")
        self.method = method
        self.id = id
        self.timeout = timeout
