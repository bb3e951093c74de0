"""The client when things go wrong: timeouts, a runtime that dies or crashes, noise on its stdout,
a burst of notifications, and the shutdown ladder against runtimes that will not stop."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import re
import signal
import time

import pytest

from conftest import Clients
from dsh_sdk._gen.models import (
    AssistantChunkEvent,
    SessionEventNotification,
    SessionPromptParams,
    TextBlock,
)
from dsh_sdk.client import (
    ClientClosedError,
    HarnessClient,
    HarnessNotification,
    RuntimeExitedError,
    RunTimeoutError,
    RuntimeSpawnError,
    text_block,
)
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.errors import JsonRpcResponseError, RequestTimeoutError
from runtime_support import (
    CHUNK_DELAY,
    ECHO_ROUTE,
    RUNTIME_COMMANDS,
    RUNTIME_IDS,
    eventually,
    fixture_command,
)
from time_budget import budget

GENEROUS = budget(10.0)
# Each step of the shutdown ladder in its test: long enough for a loaded machine to let a process
# exit, since the step that ends the runtime is what the test checks.
STEP = budget(1.0)
"""The bound, in seconds, within which a failure must be reported (it is usually milliseconds)."""


def is_gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def pid_in(stderr: list[str]) -> int:
    match = re.search(r"pid=(\d+)", "".join(stderr))
    assert match is not None
    return int(match.group(1))


# --- timeouts ------------------------------------------------------------------------------


async def test_a_request_the_runtime_does_not_answer_times_out(clients: Clients) -> None:
    client = await clients.spawn(
        command=fixture_command("fixture_runtime.py", "--prompt-delay", "never"),
        request_timeout=0.3,
    )
    params = SessionPromptParams(session_id="s", content_blocks=[text_block("hi")])
    started = time.monotonic()
    with pytest.raises(RequestTimeoutError):
        await client.prompt(params)
    assert time.monotonic() - started < GENEROUS
    with pytest.raises(RequestTimeoutError):
        await client.prompt(params, timeout=0.1)
    with pytest.raises(RequestTimeoutError):
        await client.run("hi")


async def test_a_handshake_that_times_out_stops_the_runtime() -> None:
    stderr: list[str] = []
    with pytest.raises(RequestTimeoutError):
        await HarnessClient.spawn(
            command=fixture_command(
                "fixture_runtime.py", "--initialize-delay", "never", "--shutdown", "ignore"
            ),
            initialize=ECHO_ROUTE,
            initialize_timeout=0.3,
            on_stderr=stderr.append,
        )
    await eventually(lambda: is_gone(pid_in(stderr)), GENEROUS)


async def test_a_refused_handshake_raises_the_wire_error_and_stops_the_runtime() -> None:
    with pytest.raises(JsonRpcResponseError) as caught:
        await HarnessClient.spawn(initialize=dataclasses.replace(ECHO_ROUTE, model="echo-2"))
    assert caught.value.code == -32602
    assert caught.value.data == [
        {"pointer": "/model", "message": 'model "echo-2" is not served by echo; served: echo-1'}
    ]
    # The readable message names the violation; the wire's own stays as it came.
    assert caught.value.message == (
        'Invalid params: /model: model "echo-2" is not served by echo; served: echo-1'
    )


async def test_a_command_that_cannot_start_raises_runtime_spawn_error() -> None:
    with pytest.raises(RuntimeSpawnError, match="no-such-runtime"):
        await HarnessClient.spawn(command=["/nonexistent/no-such-runtime"], initialize=ECHO_ROUTE)
    with pytest.raises(RuntimeSpawnError, match="empty"):
        await HarnessClient.spawn(command=[], initialize=ECHO_ROUTE)


async def test_a_run_without_its_receipt_times_out_waiting_for_it(clients: Clients) -> None:
    client = await clients.spawn(command=fixture_command("fixture_runtime.py"))
    with pytest.raises(RunTimeoutError) as caught:
        await client.run("hi", session_id="r", timeout=0.3)
    assert caught.value.stage == "waiting-for-receipt"


# --- the runtime dies ----------------------------------------------------------------------


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_a_runtime_killed_mid_turn_fails_every_run_and_call_at_once(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env={CHUNK_DELAY: "50"})
    killed = asyncio.Event()

    def kill_on_first_chunk(notification: HarnessNotification) -> None:
        params = notification.params
        if (
            isinstance(params, SessionEventNotification)
            and isinstance(params.event, AssistantChunkEvent)
            and not killed.is_set()
        ):
            os.kill(client.pid, signal.SIGKILL)
            killed.set()

    long_run = asyncio.ensure_future(
        client.run("x" * 400, session_id="k", on_notification=kill_on_first_chunk)
    )
    other_run = asyncio.ensure_future(client.run("y" * 400, session_id="k2"))
    started = time.monotonic()
    for run in (long_run, other_run):
        with pytest.raises(RuntimeExitedError) as caught:
            await asyncio.wait_for(run, GENEROUS)
        assert (caught.value.exit_code, caught.value.signal) == (None, "SIGKILL")
        assert "the runtime was killed by SIGKILL" in str(caught.value)
    assert time.monotonic() - started < GENEROUS
    # Later calls fail at once, with the same diagnosis.
    with pytest.raises(RuntimeExitedError):
        await asyncio.wait_for(client.run("again"), budget(1.0))
    report = await client.shutdown()
    assert (report.ended_by, report.signal) == ("already-exited", "SIGKILL")


async def test_a_crash_reports_the_exit_code_and_the_stderr_tail(clients: Clients) -> None:
    client = await clients.spawn(
        command=fixture_command(
            "fixture_runtime.py", "--crash-on-prompt", "3", "--answer-then-crash"
        )
    )
    with pytest.raises(RuntimeExitedError) as caught:
        await asyncio.wait_for(client.run("boom", session_id="c"), GENEROUS)
    error = caught.value
    assert (error.exit_code, error.signal) == (3, None)
    assert "fixture: the model backend went away\nfixture: giving up" in error.stderr_tail
    assert str(error).startswith("the runtime exited with code 3; stderr tail:\n")
    assert str(error).endswith("fixture: giving up")
    assert client.exit is not None and client.exit.exit_code == 3
    assert "giving up" in client.stderr_tail()


async def test_a_pending_request_fails_with_the_exit_not_a_closed_pipe(clients: Clients) -> None:
    client = await clients.spawn(
        command=fixture_command("fixture_runtime.py", "--crash-on-prompt", "7")
    )
    params = SessionPromptParams(session_id="p", content_blocks=[text_block("hi")])
    with pytest.raises(RuntimeExitedError) as caught:
        await asyncio.wait_for(client.prompt(params), GENEROUS)
    assert caught.value.exit_code == 7


# --- what the runtime writes ---------------------------------------------------------------


async def test_skips_and_reports_noise_on_the_runtime_stdout(clients: Clients) -> None:
    diagnostics: list[TransportDiagnostic] = []
    client = await clients.spawn(
        command=fixture_command("noisy_runtime.py"), on_diagnostic=diagnostics.append
    )
    result = await client.run("through the noise", session_id="n")
    assert result.final_response == "Echo: through the noise"
    # One line of spaces and one of text per frame are reported; empty lines are not.
    frames = 1 + 1 + len(result.notifications) + 1  # initialize, prompt, the run, `running`
    assert [d.reason for d in diagnostics] == ["invalid-json"] * (2 * frames)
    assert client.transport.diagnostic_counts == {"invalid-json": 2 * frames}


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_delivers_a_burst_of_10000_notifications_in_order(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    words = "x" * (16 * 10_000 - len("Echo: "))
    result = await asyncio.wait_for(client.run(words, session_id="burst"), budget(120))
    chunks = [event for event in result.events if isinstance(event, AssistantChunkEvent)]
    assert len(chunks) == 10_000
    assert [event.seq for event in result.events] == list(range(len(result.events)))
    deltas = [chunk.data.delta for chunk in chunks]
    assert "".join(d.text for d in deltas if isinstance(d, TextBlock)) == f"Echo: {words}"
    assert result.final_response == f"Echo: {words}"
    assert len(result.notifications) == 10_000 + 8  # 7 more events and `idle`


# --- the shutdown ladder -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "ended_by", "outcomes", "exit"),
    [
        pytest.param(
            ["--shutdown", "answer-and-stay"],
            "close-stdin",
            ["answered, still running", "exited"],
            (0, None),
            id="answers-but-stays",
        ),
        pytest.param(
            ["--shutdown", "ignore"],
            "close-stdin",
            [
                rf"not answered \(request \d+ \(shutdown\) got no response within {STEP:g} s\)",
                "exited",
            ],
            (0, None),
            id="ignores-shutdown",
        ),
        pytest.param(
            ["--shutdown", "ignore", "--on-stdin-end", "stay"],
            "sigterm",
            [r"not answered .*", "still running", "exited"],
            (None, "SIGTERM"),
            id="ignores-stdin-end",
        ),
        pytest.param(
            ["--shutdown", "ignore", "--on-stdin-end", "stay", "--sigterm", "ignore"],
            "sigkill",
            [r"not answered .*", "still running", "still running", "exited"],
            (None, "SIGKILL"),
            id="ignores-sigterm",
        ),
    ],
)
async def test_the_shutdown_ladder_climbs_until_the_runtime_is_gone(
    options: list[str], ended_by: str, outcomes: list[str], exit: tuple[int | None, str | None]
) -> None:
    client = await HarnessClient.spawn(
        command=fixture_command("fixture_runtime.py", *options), initialize=ECHO_ROUTE
    )
    try:
        report = await asyncio.wait_for(client.shutdown(timeout=STEP), 4 * STEP + GENEROUS)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(client.pid, signal.SIGKILL)
    assert (report.ended_by, report.has_exited) == (ended_by, True)
    assert (report.exit_code, report.signal) == exit
    assert len(report.steps) == len(outcomes)
    for step, outcome in zip(report.steps, outcomes, strict=True):
        assert re.fullmatch(outcome, step.outcome), step.outcome
        assert step.elapsed < STEP * 2 + budget(1.0)
    assert report.elapsed < STEP * 2 * len(outcomes) + budget(2.0)
    assert [s.step for s in report.steps] == [
        "shutdown-request",
        "close-stdin",
        "sigterm",
        "sigkill",
    ][: len(outcomes)]


async def test_a_run_in_flight_when_the_client_shuts_down_fails_with_client_closed(
    clients: Clients,
) -> None:
    client = await clients.spawn(env={CHUNK_DELAY: "50"})
    run = asyncio.ensure_future(client.run("x" * 400, session_id="late"))
    await asyncio.sleep(0.3)
    report = await client.shutdown()
    assert report.ended_by == "shutdown-request"
    # The client ended the run; the runtime's clean exit is kept as the cause.
    with pytest.raises(ClientClosedError) as caught:
        await asyncio.wait_for(run, GENEROUS)
    assert isinstance(caught.value.__cause__, RuntimeExitedError)
    assert caught.value.__cause__.exit_code == 0
    with pytest.raises(ClientClosedError):
        await client.run("after")
