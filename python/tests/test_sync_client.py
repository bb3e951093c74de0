"""The synchronous facade: the same client for scripts, its event loop in a thread."""

from __future__ import annotations

import dataclasses
import inspect
import os
import signal
import threading
from pathlib import Path

import pytest

from dsh_sdk._gen.models import SessionPromptParams, SessionStatusNotification
from dsh_sdk.client import (
    HarnessClient,
    HarnessNotification,
    RuntimeExitedError,
    SyncHarnessClient,
    image_from_file,
    text_block,
)
from dsh_sdk.errors import JsonRpcResponseError
from runtime_support import CHUNK_DELAY, ECHO_ROUTE, RUNTIME_COMMANDS, RUNTIME_IDS
from time_budget import budget


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
def test_runs_prompts_from_a_script(runtime: str) -> None:
    with HarnessClient.sync(command=RUNTIME_COMMANDS[runtime], initialize=ECHO_ROUTE) as client:
        assert client.server_info.version == "0.1.0"
        seen: list[HarnessNotification] = []
        result = client.run("hi", session_id="s", on_notification=seen.append)
        assert (result.final_response, result.message_id) == ("Echo: hi", "s/m1")
        assert seen == list(result.notifications)
        receipt = client.prompt(
            SessionPromptParams(session_id="p", content_blocks=[text_block("x")])
        )
        assert receipt.message_id == "p/m1"
        delegated = client.run("/delegate task", session_id="d")
        assert delegated.final_response == "Delegated to d/child1: Echo: task"
    assert client.exit is not None and client.exit.exit_code == 0


def test_streams_notifications_to_a_plain_loop() -> None:
    with SyncHarnessClient.spawn(initialize=ECHO_ROUTE, env={CHUNK_DELAY: "5"}) as client:
        stream = client.stream("a reply long enough for a few pieces", session_id="st")
        methods = [notification.method for notification in stream]
        result = stream.result(timeout=budget(10))
        assert methods == [n.method for n in result.notifications]
        assert isinstance(result.notifications[-1].params, SessionStatusNotification)
        # Not iterating is fine too: result() drains what came.
        assert (
            client.stream("again", session_id="st").result(timeout=budget(10)).message_id == "st/m2"
        )


def test_streams_the_reply_text_and_interrupts_it() -> None:
    with SyncHarnessClient.spawn(initialize=ECHO_ROUTE, env={CHUNK_DELAY: "100"}) as client:
        reply = client.stream_text("a reply long enough for a few pieces", session_id="t")
        deltas = list(reply)
        result = reply.result(timeout=budget(10))
        assert len(deltas) > 1
        assert "".join(deltas) == result.partial_response == result.final_response
        story = client.stream_text("x" * 1600, session_id="cut")
        first = next(iter(story))
        stopped = story.interrupt()
        assert stopped.finish_reason == "aborted" and stopped.partial_response.startswith(first)
        assert story.partial_response == stopped.partial_response
        assert story.result(timeout=budget(10)) == stopped


def test_sync_takes_exactly_the_options_of_spawn() -> None:
    spawn = list(inspect.signature(HarnessClient.spawn).parameters.values())
    for sync in (HarnessClient.sync, SyncHarnessClient.spawn):
        assert list(inspect.signature(sync).parameters.values()) == spawn


def test_sends_an_image_file(tmp_path: Path) -> None:
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(8))
    with HarnessClient.sync(initialize=ECHO_ROUTE) as client:
        result = client.run([text_block("see"), image_from_file(path)])
    assert result.final_response.startswith("Echo: see\n[image image/png, 16 bytes, sha256-")


def test_raises_the_errors_of_the_async_client() -> None:
    with pytest.raises(JsonRpcResponseError):
        HarnessClient.sync(initialize=dataclasses.replace(ECHO_ROUTE, provider="nope"))
    with SyncHarnessClient.spawn(initialize=ECHO_ROUTE, env={CHUNK_DELAY: "50"}) as client:
        stream = client.stream("x" * 200, session_id="k")
        next(iter(stream))
        os.kill(client.pid, signal.SIGKILL)
        with pytest.raises(RuntimeExitedError):
            stream.result(timeout=budget(10))
        with pytest.raises(RuntimeExitedError):
            client.run("after")
    report = client.shutdown()
    assert (report.ended_by, report.signal) == ("already-exited", "SIGKILL")


def test_leaves_no_thread_behind() -> None:
    client = HarnessClient.sync(initialize=ECHO_ROUTE)
    assert "dsh-sdk-client-loop" in {thread.name for thread in threading.enumerate()}
    report = client.shutdown()
    assert report.ended_by == "shutdown-request"
    assert client.shutdown() is report
    assert "dsh-sdk-client-loop" not in {thread.name for thread in threading.enumerate()}
