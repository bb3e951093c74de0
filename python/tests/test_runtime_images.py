"""Images in prompts on the Python reference runtime: the attachment store shared with the
TypeScript runtime, inline images made durable, durable references checked."""

from __future__ import annotations

import base64
import hashlib
import os

import pytest

from conftest import Runtimes
from dsh_sdk._gen.constants import ErrorCode
from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    AssistantMessageEvent,
    ImageAttachment,
    ImageBlock,
    SdkPromptContentBlock,
    SessionPromptParams,
    TextBlock,
    UserMessageEvent,
)
from dsh_sdk.client import image_from_bytes, text_block, text_of
from dsh_sdk.codec import encode
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.runtime import default_attachment_directory

STORE = default_attachment_directory()


def fresh_png() -> bytes:
    """Fresh bytes per test run, so the store cannot already hold them from an earlier run."""
    return b"\x89PNG\r\n\x1a\n" + os.urandom(40)


def id_of(data: bytes) -> str:
    return f"sha256-{hashlib.sha256(data).hexdigest()}"


async def test_stores_an_inline_image_and_enqueues_a_durable_reference_never_the_bytes(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    data = fresh_png()
    blocks: list[SdkPromptContentBlock] = [text_block("look"), image_from_bytes(data, "image/png")]
    await runtime.peer.session_prompt(SessionPromptParams(session_id="img", content_blocks=blocks))
    await runtime.idle("img")
    assert (STORE / id_of(data)).read_bytes() == data
    assert not [path for path in STORE.iterdir() if path.name.endswith(".partial")]
    events = runtime.events_of("img")
    user = next(event for event in events if isinstance(event, UserMessageEvent))
    assert [encode(block) for block in user.data.content] == [
        {"type": "text", "text": "look"},
        {
            "type": "image",
            "attachment": {
                "attachmentId": id_of(data),
                "mediaType": "image/png",
                "byteLength": len(data),
            },
        },
    ]
    everything = str([encode(n.params) for n in runtime.notifications])
    assert base64.b64encode(data).decode() not in everything
    message = next(event for event in events if isinstance(event, AssistantMessageEvent))
    assert text_of(message.data.message.content) == (
        f"Echo: look\n[image image/png, {len(data)} bytes, {id_of(data)}]"
    )


async def test_accepts_a_durable_reference_the_store_holds_and_keeps_its_fields(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    data = fresh_png()
    inline: list[SdkPromptContentBlock] = [image_from_bytes(data, "image/webp")]
    await runtime.peer.session_prompt(SessionPromptParams(session_id="a", content_blocks=inline))
    reference = ImageBlock(
        type="image",
        attachment=ImageAttachment(
            attachment_id=id_of(data), media_type="image/webp", extra={"note": "kept"}
        ),
    )
    receipt = await runtime.peer.session_prompt(
        SessionPromptParams(session_id="b", content_blocks=[reference])
    )
    assert receipt.message_id == "b/m1"
    await runtime.idle("b")
    events = runtime.events_of("b")
    user = next(event for event in events if isinstance(event, UserMessageEvent))
    assert user.data.content == [reference]
    message = next(event for event in events if isinstance(event, AssistantMessageEvent))
    assert text_of(message.data.message.content) == (
        f"Echo: \n[image image/webp, {len(data)} bytes, {id_of(data)}]"
    )


async def test_refuses_a_durable_reference_the_store_does_not_hold_with_32602_at_its_pointer(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    missing = id_of(os.urandom(32))
    blocks: list[SdkPromptContentBlock] = [
        TextBlock(type="text", text="see"),
        ImageBlock(
            type="image",
            attachment=ImageAttachment(attachment_id=missing, media_type="image/png"),
        ),
        ImageBlock(
            type="image",
            attachment=ImageAttachment(attachment_id="../../../etc/passwd", media_type="image/png"),
        ),
    ]
    with pytest.raises(JsonRpcResponseError) as caught:
        await runtime.peer.session_prompt(
            SessionPromptParams(session_id="c", content_blocks=blocks)
        )
    assert (caught.value.code, caught.value.wire_message) == (
        ErrorCode.INVALID_PARAMS,
        "Invalid params",
    )
    assert caught.value.data == [
        {
            "pointer": "/contentBlocks/1/attachment/attachmentId",
            "message": f'attachment "{missing}" is not held by this runtime',
        },
        {
            "pointer": "/contentBlocks/2/attachment/attachmentId",
            "message": 'attachment "../../../etc/passwd" is not held by this runtime',
        },
    ]
    # Nothing was enqueued: the session never ran.
    assert await runtime.shutdown() == 0
    assert runtime.notifications == []


async def test_refuses_an_inline_image_that_is_not_canonical_base64_or_not_a_raster_type(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    blocks = [{"type": "image", "data": "AAA", "mimeType": "image/bmp"}]
    with pytest.raises(JsonRpcResponseError) as caught:
        await runtime.transport.request(
            Method.SESSION_PROMPT, {"sessionId": "d", "contentBlocks": blocks}
        )
    assert caught.value.code == ErrorCode.INVALID_PARAMS
    pointers = [violation["pointer"] for violation in caught.value.data]
    assert pointers == ["/contentBlocks/0/data", "/contentBlocks/0/mimeType"]
