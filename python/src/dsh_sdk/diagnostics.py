"""Reports of what the transport ignored; the shape of `packages/protocol/src/diagnostics.ts`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dsh_sdk._gen.constants import DiagnosticReason
from dsh_sdk._gen.models import Violation
from dsh_sdk.classify import JsonRpcId

__all__ = ["DiagnosticObserver", "DiagnosticReason", "TransportDiagnostic"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TransportDiagnostic:
    """A report of something the transport ignored: a line it could not use, a response nobody
    waits for, a notification it dropped or whose handler failed."""

    reason: DiagnosticReason
    """The reason code shared by every language's transport."""
    message: str
    """A readable description."""
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


DiagnosticObserver = Callable[[TransportDiagnostic], None]
"""Receives every diagnostic of a transport. Called synchronously while the input is read; if it
raises, the error is ignored so that reading goes on."""
