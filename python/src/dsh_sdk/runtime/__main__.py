"""The runtime's process: the protocol on stdin/stdout, logs on stderr.

Exit codes: 0 after `shutdown` or the end of stdin; 1 when stdout broke or the runtime failed.
Run it as `python -m dsh_sdk.runtime` or `dsh-sdk-runtime-py`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from typing import Final

from dsh_sdk._gen.constants import LATEST_PROTOCOL_VERSION
from dsh_sdk.runtime.runtime import RuntimeEnd, serve_runtime
from dsh_sdk.stdio import stdio_streams

__all__ = ["CHUNK_DELAY_VARIABLE", "main", "parse_command_line", "read_chunk_delay"]

PREFIX: Final = "dsh-sdk-runtime"
"""Every stderr line starts `dsh-sdk-runtime: `, as the TypeScript runtime's do."""
CHUNK_DELAY_VARIABLE: Final = "DSH_SDK_RUNTIME_CHUNK_DELAY_MS"
MAX_CHUNK_DELAY_MS: Final = 60_000

logger = logging.getLogger("dsh_sdk.runtime")


def _log(line: str) -> None:
    logger.warning("%s", line)


def read_chunk_delay(raw: str | None) -> float:
    """`DSH_SDK_RUNTIME_CHUNK_DELAY_MS`: a pause before each chunk, in milliseconds (0 to
    60000; anything else is reported and ignored). Returns seconds."""
    if raw is None or raw == "":
        return 0.0
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if value.is_integer() and 0 <= value <= MAX_CHUNK_DELAY_MS:
        return value / 1000
    _log(
        f"ignoring {CHUNK_DELAY_VARIABLE}={raw}: expected an integer from 0 to {MAX_CHUNK_DELAY_MS}"
    )
    return 0.0


def parse_command_line(args: Sequence[str] | None = None) -> argparse.Namespace:
    """The runtime's command line (the TypeScript runtime's, option for option); `--help` and a
    bad argument exit (0 and 2)."""
    parser = argparse.ArgumentParser(
        prog="dsh-sdk-runtime-py",
        description="Serves the DeepSeek Harness SDK protocol on stdin/stdout (logs go to stderr).",
        epilog=f"environment: {CHUNK_DELAY_VARIABLE}: a pause before each assistant/chunk, "
        f"0 to {MAX_CHUNK_DELAY_MS} ms (default 0); an interrupt cuts it short",
    )
    parser.add_argument(
        "--max-tokens-is-success",
        action="store_true",
        help='report a child agent that stops with max-tokens as status "ok" '
        '(default: only "completed" is "ok")',
    )
    parser.add_argument(
        "--protocol-version",
        type=_protocol_version,
        default=LATEST_PROTOCOL_VERSION,
        metavar="N",
        help=f"play protocol version N, 1 to {LATEST_PROTOCOL_VERSION} "
        f"(default {LATEST_PROTOCOL_VERSION}); 1 behaves exactly as a version 1 runtime "
        "(for compatibility tests)",
    )
    return parser.parse_args(args)


def _protocol_version(raw: str) -> int:
    if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= LATEST_PROTOCOL_VERSION:
        return int(raw)
    raise argparse.ArgumentTypeError(
        f"{raw}: expected an integer from 1 to {LATEST_PROTOCOL_VERSION}"
    )


def _configure_logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PREFIX}: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)


async def _serve(command_line: argparse.Namespace) -> RuntimeEnd:
    source, output = await stdio_streams()
    chunk_delay = read_chunk_delay(os.environ.get(CHUNK_DELAY_VARIABLE))
    try:
        return await serve_runtime(
            source,
            output,
            _log,
            chunk_delay=chunk_delay,
            max_tokens_is_success=command_line.max_tokens_is_success,
            protocol_version=command_line.protocol_version,
        )
    finally:
        # The frames were flushed: let go of the copy of stdout (a pipe's writer closes it).
        close = getattr(output, "close", None)
        if close is not None:
            close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(output.wait_closed(), 1.0)  # type: ignore[attr-defined]


def main() -> int:
    """Serves the protocol on this process's stdio; returns the exit code."""
    command_line = parse_command_line()
    # Interrupted or terminated, the runtime dies of the signal, as the TypeScript one does.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    _configure_logging()
    try:
        end = asyncio.run(_serve(command_line))
    except Exception:
        _log(f"internal error: {traceback.format_exc().rstrip()}")
        return 1
    if end == "output-failed":
        _log("stopping: stdout is broken (the client stopped reading)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
