"""A synchronous facade over `HarnessClient`, for scripts: its own event loop in a thread."""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import threading
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar, cast

from dsh_sdk._gen.constants import DEFAULT_MAX_FRAME_BYTES, LATEST_PROTOCOL_VERSION
from dsh_sdk._gen.models import (
    InitializeParams,
    ServerCapabilities,
    ServerInfo,
    SessionCloseResult,
    SessionInterruptResult,
    SessionPromptParams,
    SessionPromptResult,
)
from dsh_sdk.client.connection_trace import TraceOptions
from dsh_sdk.client.content import PromptInput
from dsh_sdk.client.errors import RuntimeExit
from dsh_sdk.client.harness_client import (
    DEFAULT_INITIALIZE_TIMEOUT,
    DEFAULT_REQUEST_TIMEOUT,
    HarnessClient,
)
from dsh_sdk.client.notifications import HarnessNotification, NotificationListener
from dsh_sdk.client.run_stream import RunHandle, RunStream, TextStream
from dsh_sdk.client.run_tracker import RunResult
from dsh_sdk.client.shutdown_ladder import DEFAULT_SHUTDOWN_STEP_TIMEOUT, ShutdownReport
from dsh_sdk.client.stderr_tail import DEFAULT_STDERR_TAIL_BYTES
from dsh_sdk.diagnostics import DiagnosticObserver

__all__ = ["SyncHarnessClient", "SyncRunHandle", "SyncRunStream", "SyncTextStream"]

T = TypeVar("T")
H = TypeVar("H", bound=RunHandle[Any])

_END: Final = object()


class _LoopThread:
    """An event loop running in a daemon thread; coroutines are submitted to it and waited for."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="dsh-sdk-client-loop", daemon=True
        )
        self._thread.start()

    def call(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Runs `coroutine` on the loop and returns its result (or raises its error). If the
        waiting thread is interrupted (Ctrl-C), the coroutine is cancelled."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def stop(self) -> None:
        """Cancels what still runs on the loop, stops it and closes it."""
        if self.loop.is_closed():
            return
        with contextlib.suppress(Exception):
            self.call(_cancel_other_tasks())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join()
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()


async def _cancel_other_tasks() -> None:
    current = asyncio.current_task()
    tasks = [task for task in asyncio.all_tasks() if task is not current]
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=1.0)


class SyncRunHandle(Generic[T]):
    """A run being watched from synchronous code: iterate it for what it streams as it arrives,
    then call `result()`; `interrupt()` stops it. The twin of `RunHandle`."""

    def __init__(
        self, loop_thread: _LoopThread, items: queue.Queue[object], handle: RunHandle[T]
    ) -> None:
        self._thread = loop_thread
        self._items = items
        self._handle = handle
        self._task = handle.result
        self._is_ended = False

    @property
    def session_id(self) -> str:
        """The run's root session."""
        return self._handle.session_id

    @property
    def partial_response(self) -> str:
        """The text the root session streamed so far (see `RunResult.partial_response`)."""
        return self._thread.call(_read(lambda: self._handle.partial_response))

    def interrupt(self) -> RunResult:
        """Stops the run's turn and returns its result; see `RunHandle.interrupt`."""
        return self._thread.call(self._handle.interrupt())

    def __iter__(self) -> Iterator[T]:
        while not self._is_ended:
            item = self._items.get()
            if item is _END:
                self._is_ended = True
                break
            yield cast(T, item)
        if not self._task.cancelled() and self._task.exception() is not None:
            raise self._task.exception()  # type: ignore[misc]

    def result(self, timeout: float | None = None) -> RunResult:
        """Waits for the run to end (draining what was not iterated yet) and returns its result,
        or raises its error."""
        while not self._is_ended:
            if self._items.get(timeout=timeout) is _END:
                self._is_ended = True
        return self._task.result()


class SyncRunStream(SyncRunHandle[HarnessNotification]):
    """A run whose iteration yields every notification of its session tree, in wire order."""


class SyncTextStream(SyncRunHandle[str]):
    """A run whose iteration yields the assistant's reply as it streams; see `TextStream`."""


async def _read(read: Callable[[], T]) -> T:
    """Reads a value on the loop's thread, where it is written."""
    return read()


async def _pump(handle: RunHandle[T], items: queue.Queue[object]) -> None:
    """Copies what a run streams into `items`, then the end; the run's error stays on its
    task, for the iterator and `result()` to raise."""
    try:
        async for item in handle:
            items.put(item)
    except (Exception, asyncio.CancelledError):
        pass
    finally:
        items.put(_END)


class SyncHarnessClient:
    """The synchronous twin of `HarnessClient`: the same calls, blocking. It runs its own event
    loop in a daemon thread; callbacks (`on_notification`, `on_diagnostic`, `on_stderr`) run on
    that thread. Use it as a context manager, or call `shutdown()` at the end."""

    def __init__(self, loop_thread: _LoopThread, client: HarnessClient) -> None:
        self._thread = loop_thread
        self._client = client
        self._report: ShutdownReport | None = None
        self._pumps: set[asyncio.Task[None]] = set()

    @classmethod
    def spawn(
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
        """Starts a runtime and performs the handshake; takes the options of
        `HarnessClient.spawn`."""
        thread = _LoopThread()
        try:
            client = thread.call(
                HarnessClient.spawn(
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
            )
        except BaseException:
            thread.stop()
            raise
        return cls(thread, client)

    def __enter__(self) -> SyncHarnessClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.shutdown()

    @property
    def client(self) -> HarnessClient:
        """The asyncio client underneath (its coroutines run on the facade's loop only)."""
        return self._client

    @property
    def server_info(self) -> ServerInfo:
        return self._client.server_info

    @property
    def protocol_version(self) -> int:
        """The protocol version the handshake settled on; see `HarnessClient.protocol_version`."""
        return self._client.protocol_version

    @property
    def capabilities(self) -> ServerCapabilities:
        """What the runtime serves beyond version 1; see `HarnessClient.capabilities`."""
        return self._client.capabilities

    def interrupt(self, session_id: str, *, timeout: float | None = None) -> SessionInterruptResult:
        """Sends `session/interrupt`; see `HarnessClient.interrupt`."""
        return self._thread.call(self._client.interrupt(session_id, timeout=timeout))

    def close_session(self, session_id: str, *, timeout: float | None = None) -> SessionCloseResult:
        """Sends `session/close`; see `HarnessClient.close_session`."""
        return self._thread.call(self._client.close_session(session_id, timeout=timeout))

    @property
    def pid(self) -> int:
        return self._client.pid

    @property
    def exit(self) -> RuntimeExit | None:
        return self._client.exit

    def stderr_tail(self) -> str:
        return self._client.stderr_tail()

    def prompt(
        self, params: SessionPromptParams, *, timeout: float | None = None
    ) -> SessionPromptResult:
        """Sends `session/prompt` and returns the receipt."""
        return self._thread.call(self._client.prompt(params, timeout=timeout))

    def run(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        on_notification: Callable[[HarnessNotification], None] | None = None,
        timeout: float | None = None,
    ) -> RunResult:
        """Prompts a session and waits until its root session is idle; see `HarnessClient.run`."""
        return self._thread.call(
            self._client.run(
                prompt, session_id=session_id, on_notification=on_notification, timeout=timeout
            )
        )

    def stream(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> SyncRunStream:
        """Starts a run and returns it as an iterator of its notifications, then `result()`; see
        `HarnessClient.stream`."""
        items: queue.Queue[object] = queue.Queue()

        async def start() -> RunStream:
            return self._pumped(
                self._client.stream(prompt, session_id=session_id, timeout=timeout), items
            )

        return SyncRunStream(self._thread, items, self._thread.call(start()))

    def stream_text(
        self,
        prompt: PromptInput,
        *,
        session_id: str | None = None,
        timeout: float | None = None,
    ) -> SyncTextStream:
        """Starts a run and returns the assistant's reply as an iterator of text deltas, then
        `result()`; see `HarnessClient.stream_text`."""
        items: queue.Queue[object] = queue.Queue()

        async def start() -> TextStream:
            return self._pumped(
                self._client.stream_text(prompt, session_id=session_id, timeout=timeout), items
            )

        return SyncTextStream(self._thread, items, self._thread.call(start()))

    def _pumped(self, handle: H, items: queue.Queue[object]) -> H:
        pump = asyncio.get_running_loop().create_task(_pump(handle, items))
        self._pumps.add(pump)
        pump.add_done_callback(self._pumps.discard)
        return handle

    def shutdown(self, *, timeout: float = DEFAULT_SHUTDOWN_STEP_TIMEOUT) -> ShutdownReport:
        """Stops the runtime with the bounded ladder, then the facade's loop. Calling it again
        returns the same report."""
        if self._report is None:
            try:
                self._report = self._thread.call(self._client.shutdown(timeout=timeout))
            finally:
                self._thread.stop()
        return self._report
