"""An ACP agent written with the official ACP Python SDK (`agent-client-protocol`), on this
process's stdio: test_acp_peers.py drives it with our generated client peer.

Each prompt first asks the client for permission to read `/notes.txt` (`session/request_permission`)
and, when allowed, reads it (`fs/read_text_file`); then it streams `<notes> <prompt text>` word by
word as `agent_message_chunk` updates, `argv[1]` seconds apart, and ends `end_turn`, or `cancelled`
as soon as the session is cancelled.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import acp
from acp.schema import (
    AgentCapabilities,
    AllowedOutcome,
    InitializeResponse,
    NewSessionResponse,
    PermissionOption,
    PromptResponse,
    TextContentBlock,
    ToolCallUpdate,
)

PAUSE = float(sys.argv[1])


class NotesAgent:
    def __init__(self) -> None:
        self.client: acp.Client | None = None
        self.cancelled: dict[str, asyncio.Event] = {}

    def on_connect(self, conn: acp.Client) -> None:
        self.client = conn

    async def initialize(self, protocol_version: int, **_: Any) -> InitializeResponse:
        capabilities = AgentCapabilities(load_session=False)
        return InitializeResponse(protocol_version=1, agent_capabilities=capabilities)

    async def new_session(self, cwd: str, **_: Any) -> NewSessionResponse:
        session_id = f"session-{len(self.cancelled) + 1}"
        self.cancelled[session_id] = asyncio.Event()
        return NewSessionResponse(session_id=session_id)

    async def prompt(self, session_id: str, prompt: list[Any], **_: Any) -> PromptResponse:
        assert self.client is not None
        cancelled = self.cancelled[session_id]
        cancelled.clear()
        text = " ".join(block.text for block in prompt if isinstance(block, TextContentBlock))
        notes = await self.read_notes(session_id)
        for word in f"{notes} {text}".split(" "):
            if cancelled.is_set():
                return PromptResponse(stop_reason="cancelled")
            update = acp.update_agent_message_text(f"{word} ")
            await self.client.session_update(session_id=session_id, update=update)
            await asyncio.sleep(PAUSE)
        return PromptResponse(stop_reason="end_turn")

    async def read_notes(self, session_id: str) -> str:
        assert self.client is not None
        allow = PermissionOption(option_id="allow", name="Allow", kind="allow_once")
        deny = PermissionOption(option_id="deny", name="Deny", kind="reject_once")
        asked = await self.client.request_permission(
            session_id=session_id,
            tool_call=ToolCallUpdate(tool_call_id="read-notes", title="Read /notes.txt"),
            options=[allow, deny],
        )
        outcome = asked.outcome
        if not (isinstance(outcome, AllowedOutcome) and outcome.option_id == "allow"):
            return "(denied)"
        read = await self.client.read_text_file(session_id=session_id, path="/notes.txt")
        return read.content

    async def cancel(self, session_id: str, **_: Any) -> None:
        self.cancelled[session_id].set()


if __name__ == "__main__":
    asyncio.run(acp.run_agent(NotesAgent()))  # type: ignore[arg-type]
