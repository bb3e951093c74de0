"""Transports over standard streams: a child process's pipes, or this process's stdin and stdout."""

from __future__ import annotations

import asyncio
import os
import stat
from typing import Any

from dsh_sdk.line_reader import READ_CHUNK_BYTES, ByteSource
from dsh_sdk.line_writer import LineOutput
from dsh_sdk.transport import JsonRpcLineTransport

__all__ = ["open_process_transport", "open_stdio_transport", "stdio_streams"]


def open_process_transport(
    process: asyncio.subprocess.Process, **options: Any
) -> JsonRpcLineTransport:
    """A transport reading the child's stdout and writing its stdin (both must be `PIPE`).
    Not started: register handlers, then call `start()`. `options` go to the transport."""
    if process.stdout is None or process.stdin is None:
        raise ValueError("the process needs stdin=PIPE and stdout=PIPE")
    return JsonRpcLineTransport(process.stdout, process.stdin, **options)


async def open_stdio_transport(**options: Any) -> JsonRpcLineTransport:
    """A transport reading this process's stdin and writing its stdout (for a runtime).
    Not started. Nothing else may write to file descriptor 1: log to stderr."""
    source, output = await stdio_streams()
    return JsonRpcLineTransport(source, output, **options)


async def stdio_streams(stdin_fd: int = 0, stdout_fd: int = 1) -> tuple[ByteSource, LineOutput]:
    """Asyncio streams over copies of `stdin_fd` and `stdout_fd`.

    Pipes, sockets and terminals are watched by the event loop (`connect_read_pipe` and
    `connect_write_pipe`); regular files, which the loop cannot watch, are read in a worker thread
    and written directly. The descriptors are duplicated, so closing the streams leaves the
    process's own stdin and stdout open; the duplicates share the originals' non-blocking flag.
    """
    loop = asyncio.get_running_loop()
    source: ByteSource
    if _is_regular_file(stdin_fd):
        source = _FileSource(stdin_fd)
    else:
        reader = asyncio.StreamReader(limit=READ_CHUNK_BYTES)
        read_pipe = os.fdopen(os.dup(stdin_fd), "rb", buffering=0)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), read_pipe)
        source = reader
    output: LineOutput
    if _is_regular_file(stdout_fd):
        output = _FileOutput(stdout_fd)
    else:
        write_pipe = os.fdopen(os.dup(stdout_fd), "wb", buffering=0)
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, write_pipe
        )
        output = asyncio.StreamWriter(transport, protocol, None, loop)
    return source, output


def _is_regular_file(fd: int) -> bool:
    return stat.S_ISREG(os.fstat(fd).st_mode)


class _FileSource:
    """Reads a regular file (which never blocks for long) in the loop's default executor."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    async def read(self, n: int = -1) -> bytes:
        size = n if n > 0 else READ_CHUNK_BYTES
        return await asyncio.get_running_loop().run_in_executor(None, os.read, self._fd, size)


class _FileOutput:
    """Writes a regular file directly: such writes do not block for long, so there is no
    back-pressure to wait for."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]

    async def drain(self) -> None:
        return None

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return False
