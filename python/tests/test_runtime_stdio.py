"""The Python reference runtime as a process: frames only on stdout, logs on stderr, the end of
stdin, shutdown, a broken stdout, the launcher (docs/reference-runtime.md, "Process")."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.validators import validate_protocol_frame
from dsh_sdk.codec import encode
from runtime_support import CHUNK_DELAY, ECHO_ROUTE, PY_LAUNCHER, run_runtime
from time_budget import budget

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": Method.INITIALIZE, "params": encode(ECHO_ROUTE)}


def prompt(id: int, session_id: str, words: str) -> dict[str, Any]:
    params = {"sessionId": session_id, "contentBlocks": [{"type": "text", "text": words}]}
    return {"jsonrpc": "2.0", "id": id, "method": Method.SESSION_PROMPT, "params": params}


def line(message: object) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def frames(stdout: str) -> list[dict[str, Any]]:
    assert stdout == "" or stdout.endswith("\n")
    return [json.loads(text) for text in stdout.splitlines()]


def is_idle(frame: dict[str, Any], session_id: str) -> bool:
    return frame.get("method") == Method.SESSION_STATUS and frame["params"] == {
        "sessionId": session_id,
        "status": "idle",
    }


async def start(env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        str(PY_LAUNCHER),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )


async def test_writes_nothing_before_the_first_request() -> None:
    process = await start()
    assert process.stdin is not None and process.stdout is not None
    try:
        early = asyncio.ensure_future(process.stdout.read(1))
        done, _ = await asyncio.wait((early,), timeout=0.5)
        assert not done
        process.stdin.write(line({"jsonrpc": "2.0", "id": 1, "method": Method.SHUTDOWN}).encode())
        rest = await asyncio.wait_for(early, budget(10)) + await process.stdout.read()
        assert rest == b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
        assert await asyncio.wait_for(process.wait(), budget(10)) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_skips_garbage_and_blank_lines_reports_them_on_stderr_and_serves_frames_only() -> (
    None
):
    garbage = ["not json", "", "   ", "[1,2]", '{"jsonrpc":"2.0","id":null,"method":"x"}', "42", ""]
    stdin = (
        "\n".join(garbage)
        + line(INITIALIZE)
        + '{"oops": \n\r\n'
        + line(prompt(2, "g", "still here"))
    )
    code, stdout, stderr = await run_runtime(stdin)
    assert code == 0
    out = frames(stdout)
    for frame in out:
        assert validate_protocol_frame(frame) == []
    assert stdout.splitlines()[:2] == [
        '{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"deepseek-harness-sdk-runtime",'
        '"version":"0.1.0"}}}',
        '{"jsonrpc":"2.0","id":2,"result":{"messageId":"g/m1"}}',
    ]
    assert is_idle(out[-1], "g")
    # Empty lines and a lone `\r` are blank: skipped silently. A line of spaces is not JSON.
    reports = stderr.strip().split("\n")
    expected = [
        r"invalid-json line=1 bytes=8: ",
        r"invalid-json line=3 bytes=3: ",
        r"batch-unsupported line=4 bytes=5: ",
        r"invalid-id line=5 bytes=40: ",
        r"not-an-object line=6 bytes=2: ",
        r"invalid-json line=8 bytes=9: ",
    ]
    assert len(reports) == len(expected)
    for report, pattern in zip(reports, expected, strict=True):
        assert re.match(rf"dsh-sdk-runtime: ignored input: {pattern}\S", report), report


async def test_finishes_the_turn_it_owes_when_stdin_ends_then_exits_0() -> None:
    stdin = line(INITIALIZE) + line(prompt(2, "e", "a reply of several pieces to stream"))
    code, stdout, _ = await run_runtime(stdin, env={CHUNK_DELAY: "20"})
    assert code == 0
    out = frames(stdout)
    assert out[-1] == {
        "jsonrpc": "2.0",
        "method": Method.SESSION_STATUS,
        "params": {"sessionId": "e", "status": "idle"},
    }
    assert len([frame for frame in out if frame.get("method") == Method.SESSION_EVENT]) == 10


async def test_drops_the_prompts_still_queued_when_stdin_ends() -> None:
    stdin = line(INITIALIZE) + line(prompt(2, "q", "one")) + line(prompt(3, "q", "two"))
    code, stdout, _ = await run_runtime(stdin, env={CHUNK_DELAY: "20"})
    assert code == 0
    out = frames(stdout)
    assert [frame.get("result") for frame in out[1:3]] == [
        {"messageId": "q/m1"},
        {"messageId": "q/m2"},
    ]
    assert len([frame for frame in out if is_idle(frame, "q")]) == 1
    assert is_idle(out[-1], "q")


async def test_reports_a_final_line_cut_short_by_the_end_of_stdin() -> None:
    code, stdout, stderr = await run_runtime(line(INITIALIZE) + '{"jsonrpc":"2.0","id":2,"meth')
    assert code == 0
    assert len(frames(stdout)) == 1
    assert "ignored input: truncated-frame line=2 bytes=29" in stderr


async def test_exits_0_after_shutdown_while_a_turn_streams_and_stops_sending_its_frames() -> None:
    process = await start({CHUNK_DELAY: "50"})
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write((line(INITIALIZE) + line(prompt(2, "long", "x" * 200))).encode())
        seen = b""
        while b"assistant/chunk" not in seen:
            seen += await asyncio.wait_for(process.stdout.readline(), budget(10))
        process.stdin.write(line({"jsonrpc": "2.0", "id": 3, "method": Method.SHUTDOWN}).encode())
        seen += await asyncio.wait_for(process.stdout.read(), budget(10))
        assert await asyncio.wait_for(process.wait(), budget(10)) == 0
        assert frames(seen.decode())[-1] == {"jsonrpc": "2.0", "id": 3, "result": {}}
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def test_exits_0_when_stdin_ends_while_idle() -> None:
    code, stdout, stderr = await run_runtime(b"")
    assert (code, stdout, stderr) == (0, "", "")


async def test_exits_1_and_says_why_when_stdout_breaks() -> None:
    with subprocess.Popen(
        [str(PY_LAUNCHER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, CHUNK_DELAY: "10"},
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write((line(INITIALIZE) + line(prompt(2, "b", "x" * 400))).encode())
        process.stdin.flush()
        process.stdout.readline()
        process.stdout.close()  # the client stops reading
        code = await asyncio.to_thread(process.wait, 10)
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
        process.stdin.close()
    assert code == 1
    assert "dsh-sdk-runtime: stopping: stdout is broken (the client stopped reading)" in stderr


async def test_reports_and_ignores_a_chunk_delay_that_is_not_a_small_integer() -> None:
    stdin = line(INITIALIZE) + line(prompt(2, "d", "hi"))
    code, stdout, stderr = await run_runtime(stdin, env={CHUNK_DELAY: "soon"})
    assert code == 0 and is_idle(frames(stdout)[-1], "d")
    assert stderr == (
        "dsh-sdk-runtime: ignoring DSH_SDK_RUNTIME_CHUNK_DELAY_MS=soon: "
        "expected an integer from 0 to 60000\n"
    )


async def test_the_launcher_starts_from_any_working_directory_through_a_symlink(
    tmp_path: Path,
) -> None:
    link = tmp_path / "runtime"
    link.symlink_to(PY_LAUNCHER)
    result = await asyncio.to_thread(
        subprocess.run,
        [str(link)],
        input=line({"jsonrpc": "2.0", "id": "only", "method": Method.SHUTDOWN, "params": {}}),
        capture_output=True,
        text=True,
        cwd="/",
        timeout=budget(20),
    )
    assert result.returncode == 0
    assert result.stdout == '{"jsonrpc":"2.0","id":"only","result":{}}\n'


async def test_runs_as_a_module_with_any_interpreter_path() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dsh_sdk.runtime",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    stdout, _ = await asyncio.wait_for(
        process.communicate(line({"jsonrpc": "2.0", "id": 7, "method": Method.SHUTDOWN}).encode()),
        20,
    )
    assert stdout == b'{"jsonrpc":"2.0","id":7,"result":{}}\n'
    assert process.returncode == 0


async def test_answers_a_burst_of_requests_in_the_order_they_arrived() -> None:
    """Several requests in one read are answered in arrival order (see the report: the
    TypeScript runtime answers its synchronous handlers before `session/prompt`)."""
    stdin = (
        line(INITIALIZE)
        + line(prompt(2, "o", "one"))
        + line(
            {"jsonrpc": "2.0", "id": 3, "method": Method.INITIALIZE, "params": encode(ECHO_ROUTE)}
        )
        + line(prompt(4, "o", "two"))
    )
    code, stdout, _ = await run_runtime(stdin)
    assert code == 0
    ids = [frame["id"] for frame in frames(stdout) if "id" in frame]
    assert ids == [1, 2, 3, 4]
