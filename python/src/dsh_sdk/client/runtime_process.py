"""The runtime child process: spawning it, its exit, a bounded tail of its stderr, signals."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import signal as signals
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from dsh_sdk.client.errors import RuntimeExit, RuntimeExitedError, RuntimeSpawnError
from dsh_sdk.client.stderr_tail import DEFAULT_STDERR_TAIL_BYTES, StderrTail

__all__ = ["RuntimeProcess"]

STDERR_SETTLE: Final = 0.5
"""Longest wait, in seconds, after the process exited, for the rest of its stderr to arrive."""
_STDERR_CHUNK: Final = 64 * 1024


class RuntimeProcess:
    """A started runtime process. Its stdin and stdout carry the protocol; stderr is kept as a
    bounded tail (and handed to `on_stderr` as it comes)."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        *,
        stderr_tail_bytes: int = DEFAULT_STDERR_TAIL_BYTES,
        on_stderr: Callable[[str], None] | None = None,
    ) -> None:
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        self._process = process
        self._stdin = process.stdin
        self._stdout = process.stdout
        self._tail = StderrTail(stderr_tail_bytes)
        self._on_stderr = on_stderr
        self._exit: RuntimeExit | None = None
        self._stdin_closed_listeners: list[Callable[[], None]] = []
        loop = asyncio.get_running_loop()
        self._exited: asyncio.Future[RuntimeExit] = loop.create_future()
        self._stderr_task = loop.create_task(self._pump_stderr(process.stderr))
        self._exit_task = loop.create_task(self._watch_exit())
        self._exit_error_task = loop.create_task(self._make_exit_error())

    @classmethod
    async def start(
        cls,
        command: Sequence[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str | None] | None = None,
        stderr_tail_bytes: int = DEFAULT_STDERR_TAIL_BYTES,
        on_stderr: Callable[[str], None] | None = None,
    ) -> RuntimeProcess:
        """Spawns the process with piped stdio. `env` is added to (and overrides) this process's
        environment; a `None` value removes a variable. Raises `RuntimeSpawnError` if it cannot
        start."""
        argv = tuple(str(part) for part in command)
        if not argv:
            raise RuntimeSpawnError(argv, "the command is empty")
        environment = dict(os.environ)
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=environment,
            )
        except OSError as error:
            raise RuntimeSpawnError(argv, error) from error
        return cls(process, stderr_tail_bytes=stderr_tail_bytes, on_stderr=on_stderr)

    @property
    def stdin(self) -> asyncio.StreamWriter:
        """The runtime's stdin: the client writes requests here."""
        return self._stdin

    @property
    def stdout(self) -> asyncio.StreamReader:
        """The runtime's stdout: frames only."""
        return self._stdout

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def exit(self) -> RuntimeExit | None:
        """How the process ended, once it has."""
        return self._exit

    async def exited(self) -> RuntimeExit:
        """Waits until the process exits; returns how."""
        return await asyncio.shield(self._exited)

    async def exit_error(self) -> RuntimeExitedError:
        """Waits until the process exited and its stderr was read (or a short wait passed);
        returns the error that calls and runs fail with."""
        return await asyncio.shield(self._exit_error_task)

    def stderr_tail(self) -> str:
        """The last bytes of stderr, as text."""
        return self._tail.text()

    async def wait_for_exit(self, timeout: float) -> bool:
        """True once the process exited, or False after `timeout` seconds."""
        if self._exit is not None:
            return True
        done, _ = await asyncio.wait((self._exited,), timeout=max(0.0, timeout))
        return bool(done)

    def close_stdin(self) -> None:
        """Ends the runtime's stdin (the runtime then finishes and exits)."""
        if not self._stdin.is_closing():
            self._stdin.close()
            for listener in self._stdin_closed_listeners:
                listener()

    def on_stdin_closed(self, listener: Callable[[], None]) -> None:
        """Calls `listener` when `close_stdin` ends the runtime's stdin."""
        self._stdin_closed_listeners.append(listener)

    def kill(self, signal: signals.Signals) -> bool:
        """Sends `signal`; False if the process could not be signalled (it is gone)."""
        if self._exit is not None:
            return False
        try:
            self._process.send_signal(signal)
        except (ProcessLookupError, OSError):
            return False
        return True

    def release(self) -> None:
        """Lets go of the pipes and the watchers, so a process that will not die does not keep
        the client waiting."""
        self.close_stdin()
        for task in (self._stderr_task, self._exit_task, self._exit_error_task):
            task.cancel()

    async def _pump_stderr(self, stderr: asyncio.StreamReader) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        # A failing read (the pipe broke) ends the pump like the end of the stream.
        with contextlib.suppress(Exception):
            while chunk := await stderr.read(_STDERR_CHUNK):
                self._tail.push(chunk)
                if self._on_stderr is not None:
                    text = decoder.decode(chunk)
                    if text:
                        with contextlib.suppress(Exception):
                            self._on_stderr(text)

    async def _watch_exit(self) -> None:
        returncode = await self._process.wait()
        self._exit = RuntimeExit.from_returncode(returncode)
        self._exited.set_result(self._exit)

    async def _make_exit_error(self) -> RuntimeExitedError:
        exit = await asyncio.shield(self._exited)
        await asyncio.wait((self._stderr_task,), timeout=STDERR_SETTLE)
        return RuntimeExitedError(exit, self._tail.text())
