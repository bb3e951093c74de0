"""The asyncio client of one runtime process."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import os
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from dsh_sdk._gen.constants import DEFAULT_MAX_FRAME_BYTES, LATEST_PROTOCOL_VERSION
from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    InitializeParams,
    InitializeResult,
    ServerCapabilities,
    ServerInfo,
    SessionCloseParams,
    SessionCloseResult,
    SessionInterruptParams,
    SessionInterruptResult,
    SessionPromptParams,
    SessionPromptResult,
)
from dsh_sdk._gen.peers import HarnessSdkClientPeer
from dsh_sdk.client.attribute_names import attributes_named
from dsh_sdk.client.connection_trace import (
    ConnectionTrace,
    TracedOutput,
    TracedSource,
    TraceOptions,
)
from dsh_sdk.client.content import PromptInput, to_content_blocks
from dsh_sdk.client.errors import (
    CapabilityName,
    CapabilityNotSupportedError,
    ClientClosedError,
    RuntimeExit,
    RunTimeoutError,
    RuntimeSurvivedKillError,
)
from dsh_sdk.client.notifications import HarnessNotification, NotificationHub, NotificationListener
from dsh_sdk.client.params_check import require_valid
from dsh_sdk.client.run_cancellation import cancelled_run_error
from dsh_sdk.client.run_stream import AsyncQueue, RunStream, TextStream
from dsh_sdk.client.run_tracker import RunResult, RunTracker
from dsh_sdk.client.runtime_launcher import PYTHON_RUNTIME_COMMAND
from dsh_sdk.client.runtime_process import RuntimeProcess
from dsh_sdk.client.session_events import text_delta_of
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
        trace: ConnectionTrace | None = None,
    ) -> None:
        """Wraps a started `RuntimeProcess` (use `spawn`, which also shakes hands)."""
        self._runtime = runtime
        self._request_timeout = request_timeout
        self._trace = trace
        self._transport = JsonRpcLineTransport(
            runtime.stdout if trace is None else TracedSource(runtime.stdout, trace),
            runtime.stdin if trace is None else TracedOutput(runtime.stdin, trace),
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
        self._handshake: InitializeResult | None = None
        self._shutdown: asyncio.Task[ShutdownReport] | None = None
        self._watchers = [
            loop.create_task(self._watch_exit()),
            loop.create_task(self._watch_transport()),
        ]
        self._trace_done: asyncio.Task[None] | None = None
        if trace is not None:
            runtime.on_stdin_closed(functools.partial(trace.end_of_stream, "clientToServer"))
            self._trace_done = loop.create_task(trace.finish_after(runtime.exited()))
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
        protocol_version: int | None = LATEST_PROTOCOL_VERSION,
        trace: str | os.PathLike[str] | TraceOptions | None = None,
    ) -> HarnessClient:
        """Starts a runtime and performs the handshake.

        `protocol_version` is what `initialize` asks for when `initialize.protocol_version` does
        not say (default: the latest); `None` sends none, so the client behaves as a version 1
        client and the runtime answers exactly `{serverInfo}`.

        `command` defaults to the Python reference runtime (`python -m dsh_sdk.runtime` with this
        interpreter); `env` is added to (and overrides) this process's environment, a `None` value
        removing a variable. Timeouts are in seconds. `on_diagnostic` receives everything the
        transport ignores (bad lines on the runtime's stdout, …); `on_notification` is subscribed
        before the handshake, so it sees every notification from the runtime's first line on (the
        same as `on_notification()`, which can only start later); `on_stderr` the runtime's stderr
        as it comes (it is also kept as a bounded tail). If `initialize` fails or times out, the
        runtime is stopped and the error is raised (a `JsonRpcResponseError` keeps the wire code);
        `initialize` params that break the schema raise `InvalidParamsError` before any process
        is started.

        `trace` records the connection to a trace file (docs/trace-format.md; view it with
        `dsh-sdk view`): a path, or `TraceOptions`. Every frame of both directions as it passed,
        checked against the IDL, then the runtime's exit; the file is complete once `shutdown`
        returns or the runtime died. The bytes to and from the runtime are unchanged; a trace file
        that fails stops recording, reported to `TraceOptions.on_error` (default: a
        `RuntimeWarning`), and nothing else.
        """
        if initialize.protocol_version is None and protocol_version is not None:
            initialize = dataclasses.replace(initialize, protocol_version=protocol_version)
        require_valid(Method.INITIALIZE, initialize)  # before a process is started for it
        argv = [
            os.fspath(part) for part in (PYTHON_RUNTIME_COMMAND if command is None else command)
        ]
        runtime = await RuntimeProcess.start(
            argv, cwd=cwd, env=env, stderr_tail_bytes=stderr_tail_bytes, on_stderr=on_stderr
        )
        connection_trace = None
        if trace is not None:
            options = trace if isinstance(trace, TraceOptions) else TraceOptions(path=trace)
            connection_trace = ConnectionTrace(
                options, command=argv, max_frame_bytes=max_frame_bytes
            )
        client = cls(
            runtime,
            request_timeout=request_timeout,
            on_diagnostic=on_diagnostic,
            on_notification=on_notification,
            max_frame_bytes=max_frame_bytes,
            trace=connection_trace,
        )
        try:
            with attributes_named(initialize):
                result = await client._call(
                    client._peer.initialize(initialize, timeout=initialize_timeout)
                )
        except BaseException:
            await asyncio.shield(client.shutdown(timeout=FAILED_START_STEP_TIMEOUT))
            raise
        client._handshake = result
        return client

    @classmethod
    def sync(
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
        protocol_version: int | None = LATEST_PROTOCOL_VERSION,
        trace: str | os.PathLike[str] | TraceOptions | None = None,
    ) -> SyncHarnessClient:
        """A synchronous client for scripts: `with HarnessClient.sync(initialize=...) as c:
        c.run("hi")`. Takes the options of `spawn` (callbacks run on the facade's loop thread)."""
        from dsh_sdk.client.sync_client import SyncHarnessClient

        return SyncHarnessClient.spawn(
            initialize=initialize,
            command=command,
            cwd=cwd,
            env=env,
            initialize_timeout=initialize_timeout,
            request_timeout=request_timeout,
            on_diagnostic=on_diagnostic,
            on_notification=on_notification,
            on_stderr=on_stderr,
            stderr_tail_bytes=stderr_tail_bytes,
            max_frame_bytes=max_frame_bytes,
            protocol_version=protocol_version,
            trace=trace,
        )

    async def __aenter__(self) -> HarnessClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.shutdown()

    @property
    def server_info(self) -> ServerInfo:
        """Who answered the handshake."""
        return self._handshake_result().server_info

    @property
    def protocol_version(self) -> int:
        """The protocol version the handshake settled on: the runtime's `protocolVersion`, or 1
        when it answered without one (a version 1 runtime, or a client that sent none)."""
        version = self._handshake_result().protocol_version
        return 1 if version is None else version

    @property
    def capabilities(self) -> ServerCapabilities:
        """What the runtime serves beyond version 1, as it reported it (empty below version 2;
        unknown keys kept in `extra`)."""
        capabilities = self._handshake_result().capabilities
        return ServerCapabilities() if capabilities is None else capabilities

    async def interrupt(
        self, session_id: str, *, timeout: float | None = None
    ) -> SessionInterruptResult:
        """Sends `session/interrupt`: stops the session's turn in progress (its queued prompts
        stay queued). Raises `CapabilityNotSupportedError`, without sending, when the runtime did
        not report `sessionInterrupt`, and `InvalidParamsError` for an empty `session_id`."""
        self._require_open("interrupt()")
        self._require_capability("sessionInterrupt", Method.SESSION_INTERRUPT)
        bound = self._request_timeout if timeout is None else timeout
        params = SessionInterruptParams(session_id=session_id)
        require_valid(Method.SESSION_INTERRUPT, params)
        with attributes_named(params):
            return await self._call(self._peer.session_interrupt(params, timeout=bound))

    async def close_session(
        self, session_id: str, *, timeout: float | None = None
    ) -> SessionCloseResult:
        """Sends `session/close`: stops the session, drops its queued prompts and disposes it (a
        later prompt with the same id starts a new session). Raises
        `CapabilityNotSupportedError`, without sending, when the runtime did not report
        `sessionClose`, and `InvalidParamsError` for an empty `session_id`."""
        self._require_open("close_session()")
        self._require_capability("sessionClose", Method.SESSION_CLOSE)
        bound = self._request_timeout if timeout is None else timeout
        params = SessionCloseParams(session_id=session_id)
        require_valid(Method.SESSION_CLOSE, params)
        with attributes_named(params):
            return await self._call(self._peer.session_close(params, timeout=bound))

    def _handshake_result(self) -> InitializeResult:
        if self._handshake is None:
            raise RuntimeError("the handshake has not completed")
        return self._handshake

    def _has_capability(self, capability: CapabilityName) -> bool:
        if self._handshake is None:
            return False
        capabilities = self.capabilities
        flag = {
            "sessionInterrupt": capabilities.session_interrupt,
            "sessionClose": capabilities.session_close,
        }[capability]
        return flag is True

    def _require_open(self, call: str) -> None:
        """Refuses a call made once `shutdown()` was called, saying so."""
        if self._shutdown is not None:
            raise ClientClosedError.after_shutdown(call)

    def _require_capability(self, capability: CapabilityName, method: str) -> None:
        if not self._has_capability(capability):
            raise CapabilityNotSupportedError(capability, method, self.protocol_version)

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
        `timeout` defaults to the client's request timeout. Params that break the schema raise
        `InvalidParamsError` (`-32602`, as the runtime would answer) without being sent."""
        self._require_open("prompt()")
        require_valid(Method.SESSION_PROMPT, params)
        bound = self._request_timeout if timeout is None else timeout
        with attributes_named(params):
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
        error. A prompt that breaks the schema (`run([])`) fails with `InvalidParamsError` before
        anything is sent.

        `timeout` (seconds) fails the run with `RunTimeoutError` if it is not idle in time,
        carrying the text streamed so far (`partial_response`). When the runtime reported
        `sessionInterrupt` and the run's turn has started, the client first sends
        `session/interrupt`, so the session is free for its next prompt, and raises once it is
        answered (`was_interrupted`; bounded by the request timeout). A prompt still queued
        behind another turn when its timeout runs out is not interrupted: it runs later. On a
        version 1 runtime the run is only detached: its turn goes on, and a next prompt on the
        session waits for it.

        To stop a run and keep its result, interrupt it: `await client.interrupt(session_id)`
        makes `run()` return with `finish_reason` `aborted` and the text so far in
        `partial_response` (or use `stream_text` / `stream`, whose handle has `interrupt()`).

        Cancelling the task that awaits it (`task.cancel()`, `asyncio.timeout`) cancels the run
        and raises `CancelledError`, as asyncio requires. When the runtime reported
        `sessionInterrupt`, the client first sends `session/interrupt` for the run's session, as
        soon as the run's turn has started (a prompt still queued behind another turn of the
        session is interrupted once it starts, never the turn before it), and waits for the turn
        to end; the `CancelledError` says so, and `cancelled_run_result(error)` gives the
        interrupted run's `RunResult` (`finish_reason` `aborted`, `partial_response`), also from
        the `TimeoutError` of `asyncio.timeout`. Without the capability (a version 1 runtime) the
        run is detached locally at once and the `CancelledError` says that the runtime cannot
        interrupt: its turn goes on (`cancelled_run_result` gives the run as it stood). (Awaited
        through a task, Python 3.10 raises a new `CancelledError` whose `__context__` is the one
        that says it; `cancelled_run_result` follows it.)
        """
        tracker = RunTracker(_session_or_new(session_id), on_notification)
        return await self._follow(tracker, prompt, timeout, "run()")

    def stream(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        on_notification: Callable[[HarnessNotification], None] | None = None,
        timeout: float | None = None,
    ) -> RunStream:
        """Starts a run and returns it as an async iterable of the notifications of its session
        tree plus its result: `async for n in stream: …`, then `await stream`; the options and
        errors of `run`. `stream.interrupt()` stops it and returns its result."""
        queue: AsyncQueue[HarnessNotification] = AsyncQueue()
        tracker = RunTracker(_session_or_new(session_id), _both(queue.push, on_notification))
        return RunStream(queue, *self._start(tracker, queue, prompt, timeout, "stream()"))

    def stream_text(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        on_notification: Callable[[HarnessNotification], None] | None = None,
        timeout: float | None = None,
    ) -> TextStream:
        """Starts a run and returns the assistant's reply as it streams: `async for delta in
        client.stream_text("hi"): print(delta, end="")`, then `await` it for the `RunResult`.
        The deltas are the text of the root session's `assistant/chunk` events, in order; joined,
        they are the result's `partial_response`. The options and errors of `run` (the iteration
        raises the run's error); `interrupt()` stops the turn and returns the result, and
        `partial_response` is the text so far at any time."""
        queue: AsyncQueue[str] = AsyncQueue()
        root = _session_or_new(session_id)

        def forward(notification: HarnessNotification) -> None:
            delta = text_delta_of(notification, root)
            if delta:
                queue.push(delta)
            if on_notification is not None:
                on_notification(notification)

        tracker = RunTracker(root, forward)
        return TextStream(queue, *self._start(tracker, queue, prompt, timeout, "stream_text()"))

    def _start(
        self,
        tracker: RunTracker,
        queue: AsyncQueue[Any],
        prompt: PromptInput,
        timeout: float | None,
        call: str,
    ) -> tuple[RunTracker, asyncio.Task[RunResult], Callable[[], Awaitable[RunResult]]]:
        """Runs `tracker` in a task that ends `queue` with it; returns a handle's parts."""
        following = self._follow(tracker, prompt, timeout, call)
        result = asyncio.get_running_loop().create_task(following)

        def settle(task: asyncio.Task[RunResult]) -> None:
            if task.cancelled():
                queue.fail(asyncio.CancelledError())
            elif (error := task.exception()) is not None:  # also marks it retrieved
                queue.fail(error)
            else:
                queue.end()

        result.add_done_callback(settle)
        return tracker, result, functools.partial(self._interrupt_handle, tracker, result)

    async def _follow(
        self, tracker: RunTracker, prompt: PromptInput, timeout: float | None, call: str
    ) -> RunResult:
        unsubscribe = self._hub.subscribe(tracker.accept)
        self._runs.add(tracker)
        loop = asyncio.get_running_loop()
        timer = (
            None if timeout is None else loop.call_later(timeout, self._time_out, tracker, timeout)
        )
        try:
            if self._shutdown is not None:
                tracker.fail(ClientClosedError.after_shutdown(call))
            elif self._lost_error is not None:
                tracker.fail(self._lost_error)
            else:
                params = SessionPromptParams(
                    session_id=tracker.session_id, content_blocks=to_content_blocks(prompt)
                )
                self._keep(self._send_prompt(tracker, params))
            try:
                return await asyncio.shield(tracker.done)
            except asyncio.CancelledError:
                if tracker.is_settled:
                    raise
                raise await self._cancelled(tracker) from None
        finally:
            unsubscribe()
            if timer is not None:
                timer.cancel()
            self._runs.discard(tracker)

    async def _cancelled(self, tracker: RunTracker) -> asyncio.CancelledError:
        """What a cancelled run raises: on a runtime that can interrupt, once its turn was
        interrupted and ended (bounded by the request timeout), carrying its result."""
        session_id = tracker.session_id
        if not self._has_capability("sessionInterrupt"):
            return cancelled_run_error(
                f"the run on session {session_id} was cancelled and detached: the runtime "
                "cannot interrupt (it did not report the sessionInterrupt capability), so its "
                "turn goes on",
                tracker.snapshot(),
            )
        if await self._interrupt_run(tracker):
            with contextlib.suppress(Exception):  # a turn that does not end keeps its snapshot
                await asyncio.wait_for(asyncio.shield(tracker.done), self._request_timeout)
        done = tracker.done
        ended = done.done() and not done.cancelled() and done.exception() is None
        result = done.result() if ended else tracker.snapshot()
        reason = "no result" if result is None else f"finish reason {result.finish_reason}"
        return cancelled_run_error(
            f"the run on session {session_id} was cancelled: its turn was interrupted ({reason})",
            result,
        )

    async def _interrupt_handle(
        self, tracker: RunTracker, result: asyncio.Task[RunResult]
    ) -> RunResult:
        """A handle's `interrupt()`: interrupts the run's turn, then waits for the run's end."""
        if not result.done():
            self._require_capability("sessionInterrupt", Method.SESSION_INTERRUPT)
            await tracker.started.wait()
            # Once its own turn ended, the session's next turn is another prompt's: leave it be.
            if not tracker.is_settled and not tracker.has_turn_ended:
                try:
                    await self.interrupt(tracker.session_id)
                except Exception as error:
                    tracker.fail(error)
        return await asyncio.shield(result)

    def _time_out(self, tracker: RunTracker, timeout: float) -> None:
        """A run's timeout ran out: a run whose turn started on a runtime that can interrupt is
        interrupted first; otherwise it fails at once, detached."""
        if tracker.is_settled:
            return
        is_turn_running = tracker.is_started and not tracker.has_turn_ended
        if is_turn_running and self._has_capability("sessionInterrupt"):
            tracker.expire()
            self._keep(self._interrupt_timed_out(tracker, timeout))
            return
        tracker.fail(
            RunTimeoutError(
                tracker.session_id,
                timeout,
                tracker.stage,
                partial_response=tracker.partial_response,
            )
        )

    async def _interrupt_timed_out(self, tracker: RunTracker, timeout: float) -> None:
        failure: Exception | None = None
        was_interrupted = False
        try:
            was_interrupted = (await self.interrupt(tracker.session_id)).was_running
        except Exception as error:
            failure = error
        timed_out = RunTimeoutError(
            tracker.session_id,
            timeout,
            tracker.stage,
            partial_response=tracker.partial_response,  # the answer came after the last chunk
            was_interrupted=was_interrupted,
        )
        timed_out.__cause__ = failure
        tracker.fail(timed_out)

    def _keep(self, work: Coroutine[Any, Any, None]) -> None:
        """Runs `work` in a task the client holds until it ends."""
        task = asyncio.get_running_loop().create_task(work)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

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
            if self._trace is not None:
                self._trace.finish(None)  # let go alive: no exit to record
            self._runtime.release()
            error = RuntimeSurvivedKillError(self.pid)
            for run in list(self._runs):
                run.fail(error)
        elif self._trace_done is not None:
            await asyncio.shield(self._trace_done)
        return report

    async def _interrupt_run(self, tracker: RunTracker) -> bool:
        """Cancels a run on a runtime that can interrupt: once its turn has started (its receipt
        came), `session/interrupt` for its session; returns once it is answered (`True`), or
        failed, or the run settled without starting."""
        await tracker.started.wait()
        if tracker.is_settled or tracker.has_turn_ended:
            return False
        try:
            await self.interrupt(tracker.session_id)
        except Exception:
            return False
        return True

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
                    raise ClientClosedError.pending("this call") from error
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
            error = ClientClosedError.pending("what was pending")
            error.__cause__ = lost
        self._lost_error = error
        self._lost.set_result(error)
        for run in list(self._runs):
            run.fail(error)
        # Fails what still waits (a runtime whose stdout outlives it would leave it waiting).
        closing = asyncio.get_running_loop().create_task(self._transport.close(str(error)))
        self._watchers.append(closing)


def _session_or_new(session_id: str | None) -> str:
    return f"session-{uuid.uuid4()}" if session_id is None else session_id


def _both(first: NotificationListener, second: NotificationListener | None) -> NotificationListener:
    """Calls `first`, then `second` when there is one."""
    if second is None:
        return first

    def both(notification: HarnessNotification) -> None:
        first(notification)
        second(notification)

    return both
