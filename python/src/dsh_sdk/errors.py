"""The errors of the transport; the same names as `packages/protocol/src/errors.ts`."""

from __future__ import annotations

from typing import Any, Literal

from dsh_sdk.classify import JsonRpcId
from dsh_sdk.jsonlib import ABSENT

__all__ = [
    "JsonRpcResponseError",
    "RequestTimeoutError",
    "TransportCloseReason",
    "TransportClosedError",
]


class JsonRpcResponseError(Exception):
    """An error response from the peer, or an error a handler raises to choose the response it
    sends (for example `-32602` with the list of violations).

    Keeps the wire `code`, `message` and, only when there is one, `data`: `data` is `ABSENT`
    (falsy, not `None`) when the error has none, since `null` is a value `data` can have.
    """

    code: int
    message: str
    data: Any

    def __init__(self, code: int, message: str, data: Any = ABSENT) -> None:
        super().__init__(message)
        self.code = int(code)
        self.message = message
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
            return {"code": self.code, "message": self.message}
        return {"code": self.code, "message": self.message, "data": self.data}

    def __repr__(self) -> str:
        data = "" if self.data is ABSENT else f", data={self.data!r}"
        return f"JsonRpcResponseError({self.code}, {self.message!r}{data})"

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"


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
