"""The client's own errors. Wire errors stay `JsonRpcResponseError` (from `dsh_sdk.errors`)."""

from __future__ import annotations

import signal as signals
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dsh_sdk._gen.constants import ERROR_MESSAGES, ErrorCode
from dsh_sdk._gen.models import Violation
from dsh_sdk.client.attribute_names import describe_with_attributes
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.peer_support import invalid_params_error
from dsh_sdk.wire_object import WireObject

__all__ = [
    "CapabilityName",
    "CapabilityNotSupportedError",
    "ClientClosedError",
    "InvalidParamsError",
    "RunStage",
    "RunTimeoutError",
    "RuntimeExit",
    "RuntimeExitedError",
    "RuntimeSpawnError",
    "RuntimeSurvivedKillError",
    "describe_exit",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class RuntimeExit:
    """How a runtime process ended: an exit code, or the signal that killed it."""

    exit_code: int | None
    signal: str | None
    """The signal's name (`SIGKILL`), when a signal ended the process."""

    @classmethod
    def from_returncode(cls, returncode: int) -> RuntimeExit:
        """From `asyncio.subprocess.Process.returncode` (negative: killed by that signal)."""
        if returncode >= 0:
            return cls(exit_code=returncode, signal=None)
        try:
            name = signals.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return cls(exit_code=None, signal=name)


def describe_exit(exit: RuntimeExit) -> str:
    """Describes an exit for a person: `exited with code 1` or `was killed by SIGKILL`."""
    if exit.signal is not None:
        return f"was killed by {exit.signal}"
    code = "unknown" if exit.exit_code is None else str(exit.exit_code)
    return f"exited with code {code}"


class RuntimeExitedError(Exception):
    """The runtime process ended while a call or a run was waiting for it. Every pending call and
    every running `run()` fails at once with this error; its message holds the exit code (or
    signal) and the tail of the runtime's stderr."""

    exit_code: int | None
    signal: str | None
    stderr_tail: str
    """The last bytes the runtime wrote to stderr (bounded), as text."""

    def __init__(self, exit: RuntimeExit, stderr_tail: str) -> None:
        tail = stderr_tail.rstrip()
        shown = " (stderr was empty)" if tail == "" else f"; stderr tail:\n{tail}"
        super().__init__(f"the runtime {describe_exit(exit)}{shown}")
        self.exit = exit
        self.exit_code = exit.exit_code
        self.signal = exit.signal
        self.stderr_tail = stderr_tail


class ClientClosedError(Exception):
    """The client itself ended the call or run: `shutdown()` was called while it was pending
    (`__cause__` holds what happened to the runtime), or the call came after `shutdown()`
    (`after_shutdown`: nothing was sent). The runtime did not fail; see `RuntimeExitedError` for a
    runtime that ended by itself."""

    @classmethod
    def pending(cls, what: str) -> ClientClosedError:
        """`what` (`this call`, `what was pending`) was pending when `shutdown()` ended it."""
        return cls(f"the client is closing: its own shutdown() ended {what}")

    @classmethod
    def after_shutdown(cls, call: str) -> ClientClosedError:
        """A call (`run()`) made once `shutdown()` was called: the client sent nothing."""
        return cls(f"the client is closed: {call} came after its shutdown(), so nothing was sent")


class RuntimeSurvivedKillError(Exception):
    """The runtime process did not exit even after SIGKILL; the client let go of it."""

    pid: int

    def __init__(self, pid: int) -> None:
        super().__init__(f"the runtime (pid {pid}) survived SIGKILL; the client let go of it")
        self.pid = pid


class RuntimeSpawnError(Exception):
    """The runtime process could not be started (for example, the command does not exist)."""

    command: tuple[str, ...]

    def __init__(self, command: tuple[str, ...], cause: object) -> None:
        super().__init__(f"could not start the runtime {list(command)!r}: {cause}")
        self.command = command


RunStage = Literal["waiting-for-receipt", "waiting-for-idle"]
"""Where a run was when its timeout ran out."""


class RunTimeoutError(TimeoutError):
    """A run did not reach its root session's `idle` within its `timeout`.

    On a runtime that reported `sessionInterrupt`, a run whose turn had started is interrupted
    first (`session/interrupt`), and this is raised once the runtime answered: the turn is
    stopped, nothing more of it streams, and the session serves its next prompt.
    `was_interrupted` says whether that happened; it is `False` on a version 1 runtime (the turn
    goes on, detached) and for a prompt still waiting for its receipt (it runs later)."""

    session_id: str
    timeout: float
    stage: RunStage
    partial_response: str
    """The text the root session streamed before the timeout (see `RunResult.partial_response`)."""
    was_interrupted: bool

    def __init__(
        self,
        session_id: str,
        timeout: float,
        stage: RunStage,
        *,
        partial_response: str = "",
        was_interrupted: bool = False,
    ) -> None:
        waiting = "its receipt" if stage == "waiting-for-receipt" else "the session to go idle"
        outcome = "; session/interrupt stopped its turn" if was_interrupted else ""
        super().__init__(
            f"the run on session {session_id} timed out after {timeout:g} s waiting for "
            f"{waiting}{outcome}"
        )
        self.session_id = session_id
        self.timeout = timeout
        self.stage = stage
        self.partial_response = partial_response
        self.was_interrupted = was_interrupted


class InvalidParamsError(JsonRpcResponseError):
    """Params the client refused before sending them: they break the protocol's schema. The same
    error a runtime answers for them, `code` `-32602` with `data` listing every violation as
    `{pointer, message}` in the runtime's order, raised locally; nothing reached the runtime.
    Given the `params`, the message names each attribute beside its wire pointer:
    `/maxTokens (max_tokens): must be >= 1`."""

    method: str
    violations: tuple[Violation, ...]

    def __init__(
        self, method: str, violations: Sequence[Violation], params: WireObject | None = None
    ) -> None:
        code = ErrorCode.INVALID_PARAMS
        wire = invalid_params_error(violations)  # what the runtime sends for them
        super().__init__(code, ERROR_MESSAGES[code], wire.data)
        self.method = method
        self.violations = tuple(violations)
        if params is not None:
            self.message = describe_with_attributes(code, self.wire_message, wire.data, params)
        # As the TypeScript client words it: the reader learns nothing reached the runtime.
        self.message = f"{self.message} (checked by the client: {method} was not sent)"


CapabilityName = Literal["sessionInterrupt", "sessionClose"]
"""A capability of `initialize`'s result, by its wire name."""


class CapabilityNotSupportedError(Exception):
    """A version 2 method was called on a runtime that did not report its capability (a version 1
    runtime, or a client that asked for version 1). Raised before anything is sent."""

    capability: CapabilityName
    method: str
    protocol_version: int
    """The protocol version the handshake settled on."""

    def __init__(self, capability: CapabilityName, method: str, protocol_version: int) -> None:
        super().__init__(
            f"the runtime did not report the {capability} capability (negotiated protocol "
            f"version {protocol_version}): {method} was not sent"
        )
        self.capability = capability
        self.method = method
        self.protocol_version = protocol_version
