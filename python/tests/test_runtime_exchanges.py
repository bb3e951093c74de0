"""The interop matrix on the Python side: every conversation of test-vectors/exchanges/ marked
`runtime: true`, played against each reference runtime over real pipes (test-vectors/README.md,
"exchanges": groups, `$var` and `$any` placeholders, `ifOpen`, `ignoreNotifications`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from typing import Any

import pytest

from runtime_support import RUNTIME_COMMANDS, RUNTIME_IDS
from time_budget import budget
from vectors.cases import VectorCase, list_cases, suite
from vectors.exchanges import Envelope, groups_of, match_group, read_envelopes
from vectors.patterns import Bindings, resolve_pattern

RUNTIME_CASES = [
    pytest.param(case, id=case.id)
    for case in list_cases(suite("exchanges"))
    if case.expectation().get("runtime") is True
]

_END = object()


async def play(
    command: tuple[str, ...], envelopes: list[Envelope], expectation: dict[str, Any]
) -> list[str]:
    """Plays the client side of a conversation against a runtime process (with the expectation's
    `serverProtocolVersion` and `chunkDelayMs`); returns the problems."""
    ignore_notifications = expectation.get("ignoreNotifications") is True
    env = dict(os.environ)
    if "chunkDelayMs" in expectation:
        env["DSH_SDK_RUNTIME_CHUNK_DELAY_MS"] = str(expectation["chunkDelayMs"])
    process = await asyncio.create_subprocess_exec(
        *command,
        *_version_args(expectation.get("serverProtocolVersion")),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    frames: asyncio.Queue[Any] = asyncio.Queue()

    async def read(stdout: asyncio.StreamReader) -> None:
        while line := await stdout.readline():
            await frames.put(json.loads(line))
        await frames.put(_END)

    reader = asyncio.ensure_future(read(process.stdout))
    bindings: Bindings = {}
    is_output_ended = False
    try:
        for index, group in enumerate(groups_of(envelopes)):
            if group.sender == "client":
                data = "".join(
                    json.dumps(resolve_pattern(e.message, bindings), separators=(",", ":")) + "\n"
                    for e in group.envelopes
                )
                with contextlib.suppress(ConnectionError):
                    process.stdin.write(data.encode())
                    await process.stdin.drain()
                continue
            actual: list[Any] = []
            while True:
                expected = group.envelopes
                if is_output_ended:
                    expected = [e for e in expected if not e.if_open]
                match = match_group(expected, actual, bindings, ignore_notifications)
                if match.bindings is not None:
                    bindings = match.bindings
                    break
                if is_output_ended or not match.reason.startswith("missing"):
                    return [f"server group {index}: {match.reason}"]
                frame = await asyncio.wait_for(frames.get(), budget(10))
                if frame is _END:
                    is_output_ended = True
                else:
                    actual.append(frame)
        with contextlib.suppress(ConnectionError):
            process.stdin.close()
        code = await asyncio.wait_for(process.wait(), budget(10))
        if code != 0:
            return [f"the runtime exited with code {code}"]
        await asyncio.wait_for(reader, budget(10))
        leftovers = []
        while not frames.empty():
            frame = frames.get_nowait()
            if frame is not _END and "id" in frame:
                leftovers.append(frame)
        return [f"unexpected response {frame}" for frame in leftovers]
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        reader.cancel()


def _version_args(version: int | None) -> list[str]:
    return [] if version is None else ["--protocol-version", str(version)]


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
@pytest.mark.parametrize("case", RUNTIME_CASES)
async def test_a_reference_runtime_plays_the_runtime_exchanges(
    case: VectorCase, runtime: str
) -> None:
    expectation = case.expectation()
    envelopes = read_envelopes(case.wire_path)
    problems = await play(RUNTIME_COMMANDS[runtime], envelopes, expectation)
    assert problems == []


def test_there_are_runtime_exchanges_to_play() -> None:
    assert len(RUNTIME_CASES) >= 5
