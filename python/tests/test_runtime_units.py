"""The pieces of the Python reference runtime, in-process: the echo adapter, the attachment store,
the route resolver, the chunk delay, stderr lines, and `serve_runtime` on in-memory streams."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path

import pytest

from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import ImageBlock, InitializeParams, SessionPromptParams, Violation
from dsh_sdk.codec import decode, encode
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.runtime import (
    AttachmentStore,
    EchoAdapter,
    ModelPrompt,
    ModelRoute,
    PromptImage,
    attachment_id_of,
    cut_into_pieces,
    describe_diagnostic,
    resolve_route,
    serve_runtime,
)
from dsh_sdk.runtime.__main__ import read_chunk_delay
from dsh_sdk.runtime.prompt_admission import admit_prompt
from dsh_sdk.runtime.wire_pointers import json_pointer, wire_name
from runtime_support import ECHO_ROUTE
from transport_support import MemoryOutput

ROUTE = ModelRoute(
    adapter=EchoAdapter(), provider="echo", model="echo-1", reasoning_effort="medium"
)


def test_cuts_every_16_code_points() -> None:
    assert cut_into_pieces("", 16) == []
    assert cut_into_pieces("a" * 33, 16) == ["a" * 16, "a" * 16, "a"]
    assert cut_into_pieces("\N{GRINNING FACE}" * 17, 16) == [
        "\N{GRINNING FACE}" * 16,
        "\N{GRINNING FACE}",
    ]


def test_echoes_texts_and_images_and_counts_usage() -> None:
    image = PromptImage(attachment_id="sha256-x", media_type="image/gif", byte_length=7)
    reply = EchoAdapter().generate_reply(ModelPrompt(texts=("a", "b"), images=(image,)), ROUTE)
    assert reply.text == "Echo: a\nb\n[image image/gif, 7 bytes, sha256-x]"
    assert encode(reply.usage) == {"inputTokens": 3, "outputTokens": 3}
    assert reply.finish == "completed"


def test_cuts_a_reply_at_max_tokens() -> None:
    route = dataclasses.replace(ROUTE, max_tokens=1)
    reply = EchoAdapter().generate_reply(ModelPrompt(texts=("x" * 40,), images=()), route)
    assert (reply.pieces, reply.finish) == (("Echo: " + "x" * 10,), "max-tokens")


def test_delegates_only_a_first_text_block_starting_with_the_prefix() -> None:
    adapter = EchoAdapter()
    assert adapter.choose_delegation(ModelPrompt(texts=("/delegate go",), images=())) == "go"
    assert adapter.choose_delegation(ModelPrompt(texts=("/delegate",), images=())) is None
    assert adapter.choose_delegation(ModelPrompt(texts=("x", "/delegate go"), images=())) is None
    assert adapter.choose_delegation(ModelPrompt(texts=(), images=())) is None


def test_resolves_the_route_with_the_default_effort_and_the_cap() -> None:
    route = resolve_route([EchoAdapter()], dataclasses.replace(ECHO_ROUTE, max_tokens=5))
    assert (route.provider, route.model, route.reasoning_effort, route.max_tokens) == (
        "echo",
        "echo-1",
        "medium",
        5,
    )


def test_refuses_a_provider_no_adapter_serves() -> None:
    with pytest.raises(JsonRpcResponseError) as caught:
        resolve_route([], InitializeParams(cwd="/", provider="echo", model="echo-1"))
    assert caught.value.data == [
        {"pointer": "/provider", "message": 'provider "echo" is not served; served: '}
    ]


def test_spells_pointers_with_the_generated_wire_names() -> None:
    assert wire_name(SessionPromptParams, "content_blocks") == "contentBlocks"
    assert json_pointer("a/b", 0, "c~d") == "/a~1b/0/c~0d"
    with pytest.raises(LookupError):
        wire_name(ImageBlock, "nope")


async def test_stores_bytes_once_under_their_digest_without_partial_files(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path / "store")
    first = await store.admit(b"bytes")
    second = await store.admit(b"bytes")
    assert first == second
    assert first.attachment_id == attachment_id_of(b"bytes")
    assert first.attachment_id.startswith("sha256-") and len(first.attachment_id) == 7 + 64
    assert [path.name for path in (tmp_path / "store").iterdir()] == [first.attachment_id]
    assert await store.find(first.attachment_id) == first


@pytest.mark.parametrize("name", ["../etc/passwd", "sha256-00", "SHA256-" + "0" * 64, ""])
async def test_holds_no_id_of_another_form(tmp_path: Path, name: str) -> None:
    assert await AttachmentStore(tmp_path).find(name) is None


async def test_does_not_hold_a_folder_named_like_an_attachment(tmp_path: Path) -> None:
    name = attachment_id_of(b"folder")
    (tmp_path / name).mkdir()
    assert await AttachmentStore(tmp_path).find(name) is None


async def test_admits_a_prompt_reporting_every_missing_attachment(tmp_path: Path) -> None:
    store = AttachmentStore(tmp_path)
    params = {
        "sessionId": "s",
        "contentBlocks": [
            {"type": "image", "attachment": {"attachmentId": "x", "mediaType": "image/png"}},
            {"type": "text", "text": "t"},
            {"type": "image", "attachment": {"attachmentId": "y", "mediaType": "image/png"}},
        ],
    }
    with pytest.raises(JsonRpcResponseError) as caught:
        await admit_prompt(store, decode(SessionPromptParams, params).content_blocks)
    assert [v["pointer"] for v in caught.value.data] == [
        "/contentBlocks/0/attachment/attachmentId",
        "/contentBlocks/2/attachment/attachmentId",
    ]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("raw", "seconds"),
    [(None, 0.0), ("", 0.0), ("0", 0.0), ("40", 0.04), ("60000", 60.0), ("-1", 0.0), ("1.5", 0.0)],
)
def test_reads_the_chunk_delay(raw: str | None, seconds: float) -> None:
    assert read_chunk_delay(raw) == pytest.approx(seconds)


def test_describes_a_diagnostic_on_one_line() -> None:
    diagnostic = TransportDiagnostic(
        reason="invalid-json", message="not\nJSON  at all", line=3, bytes=9
    )
    assert (
        describe_diagnostic(diagnostic)
        == "ignored input: invalid-json line=3 bytes=9: not JSON at all"
    )
    lineless = TransportDiagnostic(reason="unknown-response-id", message="m")
    assert describe_diagnostic(lineless) == "ignored input: unknown-response-id bytes=0: m"


def line(message: object) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


INITIALIZE = line(
    {"jsonrpc": "2.0", "id": 1, "method": Method.INITIALIZE, "params": encode(ECHO_ROUTE)}
)


async def test_serves_in_process_until_the_input_ends(tmp_path: Path) -> None:
    source, output, logs = asyncio.StreamReader(), MemoryOutput(), list[str]()
    prompt = {"sessionId": "s", "contentBlocks": [{"type": "text", "text": "hi"}]}
    source.feed_data(
        INITIALIZE
        + line({"jsonrpc": "2.0", "id": 2, "method": Method.SESSION_PROMPT, "params": prompt})
    )
    source.feed_data(b"oops\n{")
    source.feed_eof()
    end = await asyncio.wait_for(
        serve_runtime(source, output, logs.append, store=AttachmentStore(tmp_path)), 10
    )
    assert end == "input-ended"
    messages = output.messages()
    assert messages[1] == {"jsonrpc": "2.0", "id": 2, "result": {"messageId": "s/m1"}}
    assert messages[-1]["params"] == {"sessionId": "s", "status": "idle"}
    assert [entry.split(": ")[1] for entry in logs] == [
        "invalid-json line=3 bytes=4",
        "truncated-frame line=4 bytes=1",
    ]


async def test_serves_in_process_until_shutdown(tmp_path: Path) -> None:
    source, output = asyncio.StreamReader(), MemoryOutput()
    source.feed_data(INITIALIZE + line({"jsonrpc": "2.0", "id": 2, "method": Method.SHUTDOWN}))
    end = await asyncio.wait_for(
        serve_runtime(source, output, print, store=AttachmentStore(tmp_path)), 10
    )
    assert end == "shutdown"
    assert output.messages()[-1] == {"jsonrpc": "2.0", "id": 2, "result": {}}


async def test_stops_when_the_output_fails(tmp_path: Path) -> None:
    source, output, logs = asyncio.StreamReader(), MemoryOutput(), list[str]()
    output.drain_error = BrokenPipeError("gone")
    output.writable.clear()
    source.feed_data(INITIALIZE)
    end = await asyncio.wait_for(
        serve_runtime(source, output, logs.append, store=AttachmentStore(tmp_path)), 10
    )
    assert end == "output-failed"


def test_a_violation_is_the_generated_model() -> None:
    violation = EchoAdapter().resolve_route(dataclasses.replace(ECHO_ROUTE, model="x"))
    assert isinstance(violation, Violation)
