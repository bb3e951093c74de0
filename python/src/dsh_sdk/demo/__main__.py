"""`python -m dsh_sdk.demo`: see the package docstring."""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from dsh_sdk._gen.constants import IDL_VERSION
from dsh_sdk._gen.models import (
    AssistantChunkEvent,
    InitializeParams,
    SessionEventNotification,
    SubagentFinishedNotification,
    SubagentStartedNotification,
    ToolCallEvent,
)
from dsh_sdk.client import (
    PYTHON_RUNTIME_COMMAND,
    REFERENCE_RUNTIME_LAUNCHER,
    HarnessClient,
    HarnessNotification,
    PromptInput,
    RunResult,
    describe_exit,
    image_from_bytes,
    text_block,
    text_of,
)
from dsh_sdk.client.errors import RuntimeExit
from dsh_sdk.demo.printer import DemoPrinter, format_ms, shorten

TINY_PNG: Final = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
"""A one-pixel PNG, to show an inline image becoming a durable attachment."""
SESSION: Final = "demo"
RUNTIMES: Final = {
    "py": (PYTHON_RUNTIME_COMMAND, "Python reference runtime"),
    "ts": ((str(REFERENCE_RUNTIME_LAUNCHER),), "TypeScript reference runtime"),
}

out = DemoPrinter(sys.stdout)


@dataclass(frozen=True, kw_only=True, slots=True)
class RunRecord:
    """What the summary needs of one run."""

    title: str
    result: RunResult
    first_chunk: float | None
    idle: float


def parse_options(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m dsh_sdk.demo", description=__doc__)
    parser.add_argument("--runtime", choices=sorted(RUNTIMES), default="py")
    parser.add_argument("--chunk-delay-ms", type=int, default=40, metavar="N")
    options = parser.parse_args(argv)
    if options.chunk_delay_ms < 0:
        parser.error("--chunk-delay-ms must be an integer ≥ 0")
    return options


async def run_and_watch(client: HarnessClient, title: str, prompt: PromptInput) -> RunRecord:
    """Runs one prompt, printing the tree's activity as it streams."""
    started = time.monotonic()
    first_chunk: float | None = None

    def on_notification(notification: HarnessNotification) -> None:
        nonlocal first_chunk
        params = notification.params
        if isinstance(params, SubagentStartedNotification):
            out.line("child", f"{params.child_session_id} started")
        elif isinstance(params, SubagentFinishedNotification):
            out.line(
                "child",
                f"{params.child_session_id} finished: {params.status}, {params.stop_reason}",
            )
        elif isinstance(params, SessionEventNotification):
            event = params.event
            if isinstance(event, AssistantChunkEvent):
                if first_chunk is None:
                    first_chunk = time.monotonic() - started
                is_root = params.session_id == SESSION
                label = "agent \u203a" if is_root else "child \u203a"
                out.stream(label, text_of([event.data.delta]))
            elif isinstance(event, ToolCallEvent):
                out.line("tool", f"{event.data.name} {event.data.arguments}")

    result = await client.run(
        prompt, session_id=SESSION, on_notification=on_notification, timeout=30.0
    )
    idle = time.monotonic() - started
    out.line(
        "done",
        f"{result.finish_reason or '—'} · {len(result.events)} events · messageId "
        f"{result.message_id} · idle after {format_ms(idle)}",
    )
    return RunRecord(title=title, result=result, first_chunk=first_chunk, idle=idle)


def per_run_table(title: str, per_run: Sequence[Counter[str]]) -> list[list[str | int]]:
    """A table with one row per key (first-seen order) and one column per run."""
    keys = list(dict.fromkeys(key for counts in per_run for key in counts))
    rows: list[list[str | int]] = [[title, *(f"run {i + 1}" for i in range(len(per_run)))]]
    for key in keys:
        rows.append([key, *(counts[key] for counts in per_run)])
    return rows


def print_summary(runs: Sequence[RunRecord]) -> None:
    out.heading("summary")
    for index, run in enumerate(runs):
        out.line(f"run {index + 1}", run.title)
    out.heading()
    events = [
        Counter(
            n.params.event.type
            for n in run.result.notifications
            if isinstance(n.params, SessionEventNotification)
        )
        for run in runs
    ]
    out.table(per_run_table("events per type (root + children)", events))
    out.heading()
    methods = [Counter(n.method for n in run.result.notifications) for run in runs]
    out.table(per_run_table("notifications per method", methods))
    out.heading()
    out.table(
        [
            ["timing", "first chunk", "idle"],
            *(
                [f"run {index + 1}", format_ms(run.first_chunk), format_ms(run.idle)]
                for index, run in enumerate(runs)
            ),
        ]
    )


async def start_runtime(runtime: str, chunk_delay_ms: int) -> HarnessClient:
    """Starts the chosen runtime (chunks paced so the replies visibly stream) and shakes hands."""
    command, name = RUNTIMES[runtime]
    if runtime == "ts" and not os.access(command[0], os.X_OK):
        raise RuntimeError(
            f"{command[0]} is missing or not executable (the {name} is not available)"
        )
    out.heading(f"DeepSeek Harness SDK protocol {IDL_VERSION} — Python client demo")
    out.line("runtime", f"{' '.join(command)} ({name})")
    started = time.monotonic()
    client = await HarnessClient.spawn(
        command=command,
        initialize=InitializeParams(cwd=os.getcwd(), provider="echo", model="echo-1"),
        env={"DSH_SDK_RUNTIME_CHUNK_DELAY_MS": str(chunk_delay_ms)},
    )
    info = client.server_info
    took = format_ms(time.monotonic() - started)
    out.line("handshake", f"{info.name} {info.version} · pid {client.pid} · echo/echo-1 · {took}")
    return client


async def run_scenario(client: HarnessClient) -> list[RunRecord]:
    """The two runs: a prompt with an image, then a delegation."""
    question = "What does a runtime owe its client? Frames on stdout, logs on stderr."
    out.heading("[1] a prompt with an inline image")
    out.line("you", f"{question} + a {len(TINY_PNG)}-byte PNG")
    image = image_from_bytes(TINY_PNG, "image/png")
    first = await run_and_watch(client, "prompt + image", [text_block(question), image])
    task = "list the frames of a turn, in order"
    out.heading("[2] a delegation to a child agent")
    out.line("you", f"/delegate {task}")
    second = await run_and_watch(client, "/delegate", f"/delegate {task}")
    out.line("final", shorten(second.result.final_response, 90))
    return [first, second]


async def shut_down(client: HarnessClient) -> None:
    """Climbs the shutdown ladder and says how it went."""
    out.heading("shutdown")
    report = await client.shutdown(timeout=2.0)
    for step in report.steps:
        out.line(step.step, f"{step.outcome} ({format_ms(step.elapsed)})")
    exit = RuntimeExit(exit_code=report.exit_code, signal=report.signal)
    how = (
        f"the runtime {describe_exit(exit)}"
        if report.has_exited
        else "the runtime survived SIGKILL"
    )
    out.line("ended", f"by {report.ended_by}: {how}, {format_ms(report.elapsed)} in all")


async def demo(runtime: str, chunk_delay_ms: int) -> None:
    client = await start_runtime(runtime, chunk_delay_ms)
    try:
        print_summary(await run_scenario(client))
    finally:
        await shut_down(client)


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_options(argv)
    try:
        asyncio.run(demo(options.runtime, options.chunk_delay_ms))
    except BrokenPipeError:
        # A reader that went away (`… | head`) ends the demo quietly.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keeps the exit flush quiet
        return 0
    except Exception as error:
        print(f"demo failed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
