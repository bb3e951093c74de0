"""`dsh-sdk acp -- <runtime>` driven by the official ACP Python SDK (`agent-client-protocol`, a
test dependency only) as the editor, on both reference runtimes: initialize, a streamed prompt,
a cancel in mid-reply (docs/acp.md)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any, cast

import acp
import pytest
from acp.schema import AgentMessageChunk, TextContentBlock

from runtime_support import PY_LAUNCHER, REPOSITORY, TS_LAUNCHER
from time_budget import budget

pytestmark = pytest.mark.needs_ts

DSH_SDK = REPOSITORY / "bin" / "dsh-sdk"
ROUTE = ("--provider", "echo", "--model", "echo-1")


class RecordingClient:
    """The editor's side: keeps the text each session streamed."""

    def __init__(self) -> None:
        self.text: dict[str, str] = {}

    async def session_update(self, session_id: str, update: Any, **_: Any) -> None:
        if isinstance(update, AgentMessageChunk) and isinstance(update.content, TextContentBlock):
            self.text[session_id] = self.text.get(session_id, "") + update.content.text


@pytest.mark.parametrize("runtime", [PY_LAUNCHER, TS_LAUNCHER], ids=["python", "typescript"])
async def test_the_official_python_sdk_drives_the_bridge(runtime: Path) -> None:
    editor = RecordingClient()
    env = {**os.environ, "DSH_SDK_RUNTIME_CHUNK_DELAY_MS": "15"}
    command = (*ROUTE, "--", str(runtime))
    # Typed as the whole Client protocol; the bridge never calls more than session_update.
    client = cast("acp.Client", editor)
    async with acp.spawn_agent_process(client, str(DSH_SDK), "acp", *command, env=env) as (
        connection,
        process,
    ):
        initialized = await asyncio.wait_for(
            connection.initialize(protocol_version=acp.PROTOCOL_VERSION), budget(10)
        )
        assert initialized.protocol_version == 1
        assert initialized.agent_capabilities is not None
        assert initialized.agent_capabilities.load_session is False
        assert initialized.agent_capabilities.prompt_capabilities is not None
        assert initialized.agent_capabilities.prompt_capabilities.image is True

        session = await connection.new_session(cwd=os.getcwd(), mcp_servers=[])
        text = "a streamed reply, piece by piece, through the bridge"
        answer = await asyncio.wait_for(
            connection.prompt(session_id=session.session_id, prompt=[acp.text_block(text)]),
            budget(10),
        )
        assert answer.stop_reason == "end_turn"
        assert editor.text[session.session_id] == f"Echo: {text}"

        cancelled = await connection.new_session(cwd=os.getcwd(), mcp_servers=[])
        long = "a long reply to cut short " * 30
        prompt = asyncio.ensure_future(
            connection.prompt(session_id=cancelled.session_id, prompt=[acp.text_block(long)])
        )
        await asyncio.wait_for(first_chunk(editor, cancelled.session_id), budget(5))
        await connection.cancel(session_id=cancelled.session_id)
        stopped = await asyncio.wait_for(prompt, budget(10))
        assert stopped.stop_reason == "cancelled"
        streamed = editor.text[cancelled.session_id]
        assert f"Echo: {long}".startswith(streamed)
        assert len(streamed) < len(f"Echo: {long}")

        assert process.stdin is not None
        process.stdin.close()
        assert await asyncio.wait_for(process.wait(), budget(10)) == 0


async def first_chunk(editor: RecordingClient, session_id: str) -> None:
    while not editor.text.get(session_id):
        await asyncio.sleep(0.01)
