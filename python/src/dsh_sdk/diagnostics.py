"""Reports of what the transport ignored; the shape of `packages/protocol/src/diagnostics.ts`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from dsh_sdk._gen.constants import DiagnosticReason, WireMessage, format_message
from dsh_sdk._gen.models import Violation
from dsh_sdk.classify import JsonRpcId
from dsh_sdk.line_reader import LineRejection, LineRejectionReason, LineText, utf8_length

__all__ = [
    "DiagnosticObserver",
    "DiagnosticReason",
    "TransportDiagnostic",
    "handler_failure_diagnostic",
    "line_diagnostic",
    "rejection_diagnostic",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class TransportDiagnostic:
    """A report of something the transport ignored: a line it could not use, a response nobody
    waits for, a notification it dropped or whose handler failed."""

    reason: DiagnosticReason
    """The reason code shared by every language's transport."""
    message: str
    """A readable description, the same words in every language's transport."""
    line: int | None = None
    """1-based number of the input line, when the report is about one."""
    bytes: int = 0
    """Size of that line in bytes, without its `\\n` (a trailing `\\r` counts); 0 when the report
    is about no line."""
    method: str | None = None
    """The message's method, when known."""
    id: JsonRpcId | None = None
    """The message's id, when it has a valid one."""
    violations: Sequence[Violation] | None = None
    """For `invalid-notification-params`: every violation found."""
    cause: BaseException | None = None
    """For `notification-handler-failed`: what the handler raised."""
    detail: str | None = None
    """What the underlying parser said, when there is more to say (for `invalid-json`): its
    wording belongs to each language's JSON parser, so tools comparing languages skip it."""


DiagnosticObserver = Callable[[TransportDiagnostic], None]
"""Receives every diagnostic of a transport. Called synchronously while the input is read; if it
raises, the error is ignored so that reading goes on."""


_REJECTION_MESSAGES: Final[dict[LineRejectionReason, str]] = {
    "invalid-utf8": WireMessage.INVALID_UTF8,
    "frame-too-large": WireMessage.FRAME_TOO_LARGE,
    "truncated-frame": WireMessage.TRUNCATED_FRAME,
}


def line_rejection_message(reason: LineRejectionReason, max_frame_bytes: int) -> str:
    """The text of a line the line reader dropped (transports and trace recorders alike)."""
    return format_message(_REJECTION_MESSAGES[reason], limit=max_frame_bytes)


def rejection_diagnostic(rejection: LineRejection, max_frame_bytes: int) -> TransportDiagnostic:
    """The report of a line the line reader dropped."""
    message = line_rejection_message(rejection.reason, max_frame_bytes)
    return TransportDiagnostic(
        reason=rejection.reason, message=message, line=rejection.line, bytes=rejection.bytes
    )


def line_diagnostic(
    reason: DiagnosticReason,
    message: str,
    line: int,
    text: LineText,
    *,
    method: str | None = None,
    id: JsonRpcId | None = None,
    detail: str | None = None,
) -> TransportDiagnostic:
    """The report of a message ignored on input line `line`, whose text is `text` (its size is
    computed here, only when a report needs it)."""
    return TransportDiagnostic(
        reason=reason,
        message=message,
        line=line,
        bytes=utf8_length(text),
        method=method,
        id=id,
        detail=detail,
    )


def handler_failure_diagnostic(
    method: str, line: int, bytes: int, error: Exception, error_text: str
) -> TransportDiagnostic:
    """The report of a notification handler of `method` that raised `error` (whose text is
    `error_text`), for the message on input line `line` of `bytes` bytes."""
    message = format_message(
        WireMessage.NOTIFICATION_HANDLER_FAILED, method=method, error=error_text
    )
    return TransportDiagnostic(
        reason="notification-handler-failed",
        message=message,
        line=line,
        bytes=bytes,
        method=method,
        cause=error,
    )
