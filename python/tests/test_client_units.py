"""The client's pieces in-process: content helpers, the stderr tail, exits, and the run tracker
fed notifications in every order the IDL allows (`promptLife`)."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path

import pytest

from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    AgentInboxSplicedEvent,
    AssistantMessage,
    AssistantMessageEvent,
    AssistantReply,
    ImageAttachment,
    ImageBlock,
    InboxSplice,
    InitializeParams,
    MessageSource,
    SdkEncodedImageBlock,
    SessionEvent,
    SessionEventNotification,
    SessionPromptParams,
    SessionStatus,
    SessionStatusNotification,
    SubagentStartedNotification,
    TextBlock,
    TurnEnd,
    TurnEndEvent,
    TurnEndReason,
    UserMessage,
)
from dsh_sdk.client import (
    HarnessNotification,
    RunResult,
    RuntimeExit,
    RuntimeExitedError,
    RunTimeoutError,
    describe_exit,
    detect_image_mime_type,
    image_from_bytes,
    image_from_file,
    mime_type_from_extension,
    text_block,
    text_of,
    to_content_blocks,
)
from dsh_sdk.client.attribute_names import attribute_path, describe_with_attributes
from dsh_sdk.client.run_stream import AsyncQueue
from dsh_sdk.client.run_tracker import RunTracker
from dsh_sdk.client.stderr_tail import StderrTail
from time_budget import budget

# --- content -------------------------------------------------------------------------------


def test_builds_text_and_inline_image_blocks() -> None:
    assert to_content_blocks("hi") == [TextBlock(type="text", text="hi")]
    blocks = [text_block("a"), text_block("b")]
    assert to_content_blocks(blocks) == blocks and to_content_blocks(blocks) is not blocks
    image = image_from_bytes(b"\x00\x01\xff", "image/gif")
    assert image == SdkEncodedImageBlock(type="image", data="AAH/", mime_type="image/gif")


@pytest.mark.parametrize(
    ("data", "mime_type"),
    [
        (b"\x89PNG\r\n\x1a\n....", "image/png"),
        (b"\xff\xd8\xff\xe0", "image/jpeg"),
        (b"GIF87a", "image/gif"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"RIFF\x00\x00\x00\x00WAVE", None),
        (b"", None),
    ],
)
def test_detects_the_four_raster_types_by_signature(data: bytes, mime_type: str | None) -> None:
    assert detect_image_mime_type(data) == mime_type


def test_reads_an_image_file_by_signature_then_extension(tmp_path: Path) -> None:
    jpeg = tmp_path / "photo.png"  # a misleading extension: the signature wins
    jpeg.write_bytes(b"\xff\xd8\xff" + b"rest")
    assert image_from_file(jpeg).mime_type == "image/jpeg"
    unknown = tmp_path / "drawing.WEBP"
    unknown.write_bytes(b"no signature")
    block = image_from_file(unknown)
    assert (block.mime_type, base64.b64decode(block.data)) == ("image/webp", b"no signature")
    neither = tmp_path / "notes.txt"
    neither.write_bytes(b"text")
    with pytest.raises(ValueError, match="not a PNG, JPEG, WebP or GIF"):
        image_from_file(neither)
    assert mime_type_from_extension("a.JPG") == "image/jpeg"
    assert mime_type_from_extension("a.bmp") is None


def test_text_of_joins_text_blocks_only() -> None:
    image = ImageBlock(
        type="image", attachment=ImageAttachment(attachment_id="sha256-x", media_type="image/png")
    )
    assert text_of([text_block("a"), image, text_block("b")]) == "ab"


# --- exits and stderr ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pointer", "path"),
    [
        ("/sessionId", "session_id"),
        ("/contentBlocks/0/attachment/attachmentId", "content_blocks[0].attachment.attachment_id"),
        ("/contentBlocks", "content_blocks"),
        ("", None),  # the params themselves
        ("/contentBlocks/1", None),  # no such block
        ("/contentBlocks/0/attachment/size", None),  # not a field: a member of `extra`
        ("/contentBlocks/x", None),  # not an index
    ],
)
def test_names_the_attribute_a_violation_points_at(pointer: str, path: str | None) -> None:
    attachment = ImageAttachment(attachment_id="a", media_type="image/png", extra={"size": 3})
    params = SessionPromptParams(
        session_id="s", content_blocks=[ImageBlock(type="image", attachment=attachment)]
    )
    assert attribute_path(params, pointer) == path


def test_names_no_attribute_where_it_reads_as_the_pointer() -> None:
    route = InitializeParams(cwd="/w", provider="echo", model="echo-1")
    assert attribute_path(route, "/model") is None
    message = describe_with_attributes(
        -32602, "Invalid params", [{"pointer": "/model", "message": "m"}], route
    )
    assert message == "Invalid params: /model: m"


def test_keeps_a_bounded_stderr_tail() -> None:
    tail = StderrTail(8)
    tail.push(b"0123456789")
    tail.push(b"ab")
    assert tail.text() == "456789ab"
    cut = StderrTail(3)
    cut.push("é!".encode() + b"xy")  # the tail starts inside `é`: the broken character goes
    assert cut.text() == "!xy"


def test_describes_exits() -> None:
    assert RuntimeExit.from_returncode(0) == RuntimeExit(exit_code=0, signal=None)
    assert RuntimeExit.from_returncode(-9) == RuntimeExit(exit_code=None, signal="SIGKILL")
    assert describe_exit(RuntimeExit(exit_code=2, signal=None)) == "exited with code 2"
    assert describe_exit(RuntimeExit(exit_code=None, signal="SIGTERM")) == "was killed by SIGTERM"
    error = RuntimeExitedError(RuntimeExit(exit_code=1, signal=None), "")
    assert str(error) == "the runtime exited with code 1 (stderr was empty)"
    timeout = RunTimeoutError("s", 1.5, "waiting-for-idle")
    assert isinstance(timeout, TimeoutError)
    assert (
        str(timeout)
        == "the run on session s timed out after 1.5 s waiting for the session to go idle"
    )


# --- the run tracker -----------------------------------------------------------------------


def event(session_id: str, value: SessionEvent) -> HarnessNotification:
    params = SessionEventNotification(session_id=session_id, event=value)
    return HarnessNotification(Method.SESSION_EVENT, params)


def status(session_id: str, value: SessionStatus) -> HarnessNotification:
    params = SessionStatusNotification(session_id=session_id, status=value)
    return HarnessNotification(Method.SESSION_STATUS, params)


def receipt(session_id: str, message_id: str, seq: int = 0) -> HarnessNotification:
    message = UserMessage(
        id=message_id, role="user", content=[text_block("x")], source=MessageSource(kind="user")
    )
    spliced = AgentInboxSplicedEvent(
        type="agent/inbox/spliced",
        seq=seq,
        time=0,
        data=InboxSplice(target="next-turn", start=0, inserted=[message]),
    )
    return event(session_id, spliced)


def reply(session_id: str, words: str, seq: int) -> HarnessNotification:
    message = AssistantMessage(id="r", role="assistant", content=[text_block(words)])
    return event(
        session_id,
        AssistantMessageEvent(
            type="assistant/message", seq=seq, time=0, data=AssistantReply(message=message)
        ),
    )


def turn_end(session_id: str, kind: str, seq: int) -> HarnessNotification:
    data = TurnEnd(turn=0, reason=TurnEndReason(kind=kind))
    return event(session_id, TurnEndEvent(type="turn/end", seq=seq, time=0, data=data))


def started(parent: str, child: str) -> HarnessNotification:
    params = SubagentStartedNotification(parent_session_id=parent, child_session_id=child)
    return HarnessNotification(Method.SUBAGENT_STARTED, params)


async def finished(tracker: RunTracker) -> RunResult:
    return await asyncio.wait_for(tracker.done, budget(1))


async def test_takes_the_receipt_before_the_response() -> None:
    tracker = RunTracker("s")
    stream = [
        status("s", "running"),
        receipt("s", "s/m1"),
        started("s", "s/child1"),
        status("s/child1", "running"),
        status("s/child1", "idle"),
        reply("s", "done", 1),
        turn_end("s", "completed", 2),
        status("s", "idle"),
    ]
    for notification in stream:
        tracker.accept(notification)
    assert tracker.stage == "waiting-for-receipt"
    tracker.set_message_id("s/m1")
    result = await finished(tracker)
    assert (result.message_id, result.final_response, result.finish_reason) == (
        "s/m1",
        "done",
        "completed",
    )
    assert list(result.notifications) == stream[1:]
    assert len(result.events) == 3


async def test_ignores_an_earlier_turn_of_the_session_and_other_sessions() -> None:
    tracker = RunTracker("s")
    tracker.set_message_id("s/m2")
    for notification in [
        receipt("s", "s/m1"),
        reply("s", "first", 1),
        status("s", "idle"),  # the earlier turn's idle: not this run's end
        receipt("other", "s/m2"),  # the right id on another session
        status("other", "idle"),
        started("other", "s/child9"),
    ]:
        tracker.accept(notification)
    assert not tracker.done.done()
    tracker.accept(receipt("s", "s/m2", 2))
    assert tracker.stage == "waiting-for-idle"
    tracker.accept(status("s", "idle"))
    result = await finished(tracker)
    assert (result.final_response, result.finish_reason) == ("", None)
    assert len(result.notifications) == 2


async def test_fails_once_and_ignores_what_follows() -> None:
    tracker = RunTracker("s")
    tracker.fail(RuntimeError("first"))
    tracker.fail(RuntimeError("second"))
    tracker.set_message_id("s/m1")
    tracker.accept(receipt("s", "s/m1"))
    with pytest.raises(RuntimeError, match="first"):
        await finished(tracker)


async def test_the_async_queue_delivers_then_ends_or_fails() -> None:
    queue: AsyncQueue[int] = AsyncQueue()
    queue.push(1)
    queue.push(2)

    async def collect() -> list[int]:
        return [value async for value in queue]

    collecting = asyncio.ensure_future(collect())
    await asyncio.sleep(0)
    queue.push(3)
    queue.end()
    queue.push(4)
    assert await collecting == [1, 2, 3]
    failing: AsyncQueue[int] = AsyncQueue()
    failing.push(1)
    failing.fail(ValueError("broken"))
    values: list[int] = []
    with pytest.raises(ValueError, match="broken"):
        async for value in failing:
            values.append(value)
    assert values == [1]
