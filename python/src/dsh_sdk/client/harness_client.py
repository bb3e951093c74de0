"""The asyncio client of one runtime process."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from dsh_sdk._gen.constants import DEFAULT_MAX_FRAME_BYTES
from dsh_sdk._gen.models import (
    InitializeParams,
    ServerInfo,
    SessionPromptParams,
    SessionPromptResult,
)
from dsh_sdk._gen.peers import HarnessSdkClientPeer
from dsh_sdk.client.content import PromptInput, to_content_blocks
from dsh_sdk.client.errors import (
    ClientClosedError,
    RuntimeExit,
    RunTimeoutError,
    RuntimeSurvivedKillError,
)
from dsh_sdk.client.notifications import HarnessNotification, NotificationHub, NotificationListener
from dsh_sdk.client.run_stream import AsyncQueue, RunStream
from dsh_sdk.client.run_tracker import RunResult, RunTracker
from dsh_sdk.client.runtime_launcher import PYTHON_RUNTIME_COMMAND
from dsh_sdk.client.runtime_process import RuntimeProcess
from dsh_sdk.client.shutdown_ladder import (
    DEFAULT_SHUTDOWN_STEP_TIMEOUT,
    ShutdownReport,
    climb_shutdown_ladder,
)
from dsh_sdk.client.stderr_tail import DEFAULT_STDERR_TAIL_BYTES
from dsh_sdk.diagnostics import DiagnosticObserver
from dsh_sdk.errors import TransportClosedError
from dsh_sdk.transport import JsonRpcLineTransport

if TYPE_CHECKING:
    from dsh_sdk.client.sync_client import SyncHarnessClient

__all__ = [
    "DEFAULT_INITIALIZE_TIMEOUT",
    "DEFAULT_REQUEST_TIMEOUT",
    "HarnessClient",
]

DEFAULT_INITIALIZE_TIMEOUT: Final = 10.0
"""Bound of the `initialize` request, in seconds."""
DEFAULT_REQUEST_TIMEOUT: Final = 30.0
"""Bound of every other request, `session/prompt` included, in seconds."""
EXIT_GRACE: Final = 2.0
"""How long a broken stdout may precede the process's exit before calls fail without it."""
FAILED_START_STEP_TIMEOUT: Final = 1.0
"""Bound of each shutdown step when a failed handshake stops the runtime."""

T = TypeVar("T")


class HarnessClient:
    """A client of one runtime process: spawns it, performs the handshake, sends prompts and
    follows them to idle, and stops it with a bounded ladder. When the runtime dies, every pending
    call and every running run fails at once with a `RuntimeExitedError` (exit code or signal,
    stderr tail).

    Start one with `await HarnessClient.spawn(...)`; use it as `async with` to shut the runtime
    down at the end. Scripts without asyncio use `HarnessClient.sync(...)`.
    """

    def __init__(
        self,
        runtime: RuntimeProcess,
        *,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        on_diagnostic: DiagnosticObserver | None = None,
        on_notification: NotificationListener | None = None,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    ) -> None:
        """Wraps a started `RuntimeProcess` (use `spawn`, which also shakes hands)."""
        self._runtime = runtime
        self._request_timeout = request_timeout
        self._transport = JsonRpcLineTransport(
            runtime.stdout,
            runtime.stdin,
            max_frame_bytes=max_frame_bytes,
            on_diagnostic=on_diagnostic,
        )
        self._peer = HarnessSdkClientPeer(self._transport)
        self._hub = NotificationHub(self._peer, self._transport)
        if on_notification is not None:
            self._hub.subscribe(on_notification)
        self._runs: set[RunTracker] = set()
        self._sending: set[asyncio.Task[None]] = set()
        loop = asyncio.get_running_loop()
        self._lost: asyncio.Future[BaseException] = loop.create_future()
        """Settles with the error calls and runs fail with once the runtime is gone."""
        self._lost_error: BaseException | None = None
        self._server_info: ServerInfo | None = None
        self._shutdown: asyncio.Task[ShutdownReport] | None = None
        self._watchers = [
            loop.create_task(self._watch_exit()),
            loop.create_task(self._watch_transport()),
        ]
        self._transport.start()

    @classmethod
    async def spawn(
        cls,
        *,
        initialize: InitializeParams,
        command: Sequence[str | os.PathLike[str]] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str | None] | None = None,
        initialize_timeout: float = DEFAULT_INITIALIZE_TIMEOUT,
        request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
        on_diagnostic: DiagnosticObserver | None = None,
        on_notification: NotificationListener | None = None,
        on_stderr: Callable[[str], None] | None = None,
        stderr_tail_bytes: int = DEFAULT_STDERR_TAIL_BYTES,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    ) -> HarnessClient:
        """Starts a runtime and performs the handshake.

        `command` defaults to the Python reference runtime (`python -m dsh_sdk.runtime` with this
        interpreter); `env` is added to (and overrides) this process's environment, a `None` value
        removing a variable. Timeouts are in seconds. `on_diagnostic` receives everything the
        transport ignores (bad lines on the runtime's stdout, …); `on_notification` is subscribed
        before the handshake, so it sees every notification from the runtime's first line on (the
        same as `on_notification()`, which can only start later); `on_stderr` the runtime's stderr
        as it comes (it is also kept as a bounded tail). If `initialize` fails or times out, the
        runtime is stopped and the error is raised (a `JsonRpcResponseError` keeps the wire code).
        """
        argv = [
            os.fspath(part) for part in (PYTHON_RUNTIME_COMMAND if command is None else command)
        ]
        runtime = await RuntimeProcess.start(
            argv, cwd=cwd, env=env, stderr_tail_bytes=stderr_tail_bytes, on_stderr=on_stderr
        )
        client = cls(
            runtime,
            request_timeout=request_timeout,
            on_diagnostic=on_diagnostic,
            on_notification=on_notification,
            max_frame_bytes=max_frame_bytes,
        )
        try:
            result = await client._call(
                client._peer.initialize(initialize, timeout=initialize_timeout)
            )
        except BaseException:
            await asyncio.shield(client.shutdown(timeout=FAILED_START_STEP_TIMEOUT))
            raise
        client._server_info = result.server_info
        return client

    @classmethod
    def sync(cls, **options: Any) -> SyncHarnessClient:
        """A synchronous client for scripts: `with HarnessClient.sync(initialize=...) as c:
        c.run("hi")`. Takes the options of `spawn`."""
        from dsh_sdk.client.sync_client import SyncHarnessClient

        return SyncHarnessClient.spawn(**options)

    async def __aenter__(self) -> HarnessClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.shutdown()

    @property
    def server_info(self) -> ServerInfo:
        """Who answered the handshake."""
        if self._server_info is None:
            raise RuntimeError("the handshake has not completed")
        return self._server_info

    @property
    def pid(self) -> int:
        """The runtime's process id."""
        return self._runtime.pid

    @property
    def exit(self) -> RuntimeExit | None:
        """How the runtime ended, once it has."""
        return self._runtime.exit

    @property
    def transport(self) -> JsonRpcLineTransport:
        """The transport to the runtime (for its diagnostic counts, or raw requests in tests)."""
        return self._transport

    async def wait_exited(self) -> RuntimeExit:
        """Waits until the runtime process exits, however that happens."""
        return await self._runtime.exited()

    def stderr_tail(self) -> str:
        """The last bytes of the runtime's stderr."""
        return self._runtime.stderr_tail()

    def on_notification(self, listener: NotificationListener) -> Callable[[], None]:
        """Subscribes to every notification of the runtime (all sessions); returns the
        unsubscribe function."""
        return self._hub.subscribe(listener)

    async def prompt(
        self, params: SessionPromptParams, *, timeout: float | None = None
    ) -> SessionPromptResult:
        """Sends `session/prompt` and returns the receipt; see `run` to follow the turn.
        `timeout` defaults to the client's request timeout."""
        bound = self._request_timeout if timeout is None else timeout
        return await self._call(self._peer.session_prompt(params, timeout=bound))

    async def run(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        on_notification: Callable[[HarnessNotification], None] | None = None,
        timeout: float | None = None,
    ) -> RunResult:
        """Prompts a session and follows the run from the prompt's receipt to the root session's
        next `idle`, over the root and the children `subagent.started` reveals (recursively).

        `session_id` defaults to a new session. `on_notification` gets every notification of the
        run's session tree as it arrives, in wire order; if it raises, the run fails with that
        error. `timeout` (seconds) fails the run with `RunTimeoutError` if it is not idle in
        time. Cancelling the call abandons the run (the protocol has no cancel method: the
        runtime's turn goes on).
        """
        if session_id is None:
            session_id = f"session-{uuid.uuid4()}"
        tracker = RunTracker(session_id, on_notification)
        unsubscribe = self._hub.subscribe(tracker.accept)
        self._runs.add(tracker)
        loop = asyncio.get_running_loop()
        timer = (
            None
            if timeout is None
            else loop.call_later(
                timeout,
                lambda: tracker.fail(RunTimeoutError(session_id, timeout, tracker.stage)),
            )
        )
        try:
            if self._lost_error is not None:
                tracker.fail(self._lost_error)
            else:
                params = SessionPromptParams(
                    session_id=session_id, content_blocks=to_content_blocks(prompt)
                )
                sending = loop.create_task(self._send_prompt(tracker, params))
                self._sending.add(sending)
                sending.add_done_callback(self._sending.discard)
            return await tracker.done
        finally:
            unsubscribe()
            if timer is not None:
                timer.cancel()
            self._runs.discard(tracker)

    def stream(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        on_notification: Callable[[HarnessNotification], None] | None = None,
        timeout: float | None = None,
    ) -> RunStream:
        """Starts a run and returns it as an async iterable of its notifications plus its
        result: `async for n in stream: …`, then `await stream`."""
        queue: AsyncQueue[HarnessNotification] = AsyncQueue()

        def forward(notification: HarnessNotification) -> None:
            queue.push(notification)
            if on_notification is not None:
                on_notification(notification)

        result = asyncio.get_running_loop().create_task(
            self.run(prompt, session_id=session_id, on_notification=forward, timeout=timeout)
        )

        def settle(task: asyncio.Task[RunResult]) -> None:
            if task.cancelled():
                queue.fail(asyncio.CancelledError())
            elif (error := task.exception()) is not None:  # also marks it retrieved
                queue.fail(error)
            else:
                queue.end()

        result.add_done_callback(settle)
        return RunStream(queue, result)

    async def shutdown(self, *, timeout: float = DEFAULT_SHUTDOWN_STEP_TIMEOUT) -> ShutdownReport:
        """Stops the runtime: a bounded `shutdown` request, then closing stdin, SIGTERM and
        SIGKILL, each bounded by `timeout` seconds, stopping at the first step after which it is
        gone. Calling it again returns the same report."""
        if self._shutdown is None:
            self._shutdown = asyncio.get_running_loop().create_task(self._climb(timeout))
        return await asyncio.shield(self._shutdown)

    async def _climb(self, timeout: float) -> ShutdownReport:
        async def request_shutdown(bound: float) -> object:
            return await self._peer.shutdown(timeout=bound)

        report = await climb_shutdown_ladder(self._runtime, request_shutdown, timeout=timeout)
        await self._transport.close("the client shut the runtime down")
        if not report.has_exited:
            self._runtime.release()
            error = RuntimeSurvivedKillError(self.pid)
            for run in list(self._runs):
                run.fail(error)
        return report

    async def _send_prompt(self, tracker: RunTracker, params: SessionPromptParams) -> None:
        try:
            result = await self.prompt(params)
        except Exception as error:
            tracker.fail(error)
        else:
            tracker.set_message_id(result.message_id)

    async def _call(self, request: Awaitable[T]) -> T:
        """Awaits a request; if it failed because the runtime went away, raises why it did."""
        try:
            return await request
        except Exception as error:
            if self._lost_error is not None:
                raise self._lost_error.with_traceback(None) from error
            if isinstance(error, TransportClosedError):
                if self._shutdown is not None:
                    raise ClientClosedError("this call") from error
                if error.reason != "closed":
                    lost = await asyncio.shield(self._lost)
                    raise lost.with_traceback(None) from error
            raise

    async def _watch_exit(self) -> None:
        self._lose(await self._runtime.exit_error())

    async def _watch_transport(self) -> None:
        closed = await self._transport.wait_closed()
        if closed.reason == "closed" or await self._runtime.wait_for_exit(EXIT_GRACE):
            return
        self._lose(closed)  # stdout broke, yet the process lives on

    def _lose(self, lost: BaseException) -> None:
        if self._lost.done():
            return
        error = lost
        if self._shutdown is not None:
            # The client's own shutdown ended the runtime: say so, and keep what happened.
            error = ClientClosedError("what was pending")
            error.__cause__ = lost
        self._lost_error = error
        self._lost.set_result(error)
        for run in list(self._runs):
            run.fail(error)
        # Fails what still waits (a runtime whose stdout outlives it would leave it waiting).
        closing = asyncio.get_running_loop().create_task(self._transport.close(str(error)))
        self._watchers.append(closing)
