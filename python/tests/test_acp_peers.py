"""Our generated ACP client peer (`dsh_sdk.acp.AcpClientPeer`) drives an agent written with the
official ACP Python SDK (`agent-client-protocol`, tests/peers/acp_official_agent.py) over real
stdio: initialize, a new session, a prompt whose streamed `session/update` notifications arrive
typed, the agent's requests answered by our handlers, and a cancel in mid-reply."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from dsh_sdk.acp import (
    AcpClientPeer,
    AcpClientRequestHandlers,
    AgentMessageChunkSessionUpdate,
    CancelNotification,
    ClientCapabilities,
    FileSystemCapabilities,
    InitializeRequest,
    NewSessionRequest,
    PromptRequest,
    ReadTextFileRequest,
    ReadTextFileResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    SelectedRequestPermissionOutcome,
    SessionNotification,
    TextContentBlock,
)
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.stdio import open_process_transport
from time_budget import budget

pytestmark = pytest.mark.usefixtures("no_loop_errors")

AGENT = Path(__file__).parent / "peers" / "acp_official_agent.py"


class Editor(AcpClientRequestHandlers):
    """Allows every permission and serves one file; the other optional methods are left out."""

    def __init__(self) -> None:
        self.asked: list[RequestPermissionRequest] = []

    async def session_request_permission(
        self, params: RequestPermissionRequest, context: RequestContext
    ) -> RequestPermissionResponse:
        self.asked.append(params)
        allow = next(option for option in params.options if option.kind == "allow_once")
        outcome = SelectedRequestPermissionOutcome(outcome="selected", option_id=allow.option_id)
        return RequestPermissionResponse(outcome=outcome)

    async def fs_read_text_file(
        self, params: ReadTextFileRequest, context: RequestContext
    ) -> ReadTextFileResponse:
        return ReadTextFileResponse(content=f"notes from {params.path}:")


class Streamed:
    """The agent's text of each session, joined from typed `agent_message_chunk` updates."""

    def __init__(self) -> None:
        self.text: dict[str, str] = {}
        self.chunks = 0
        self.first = asyncio.Event()

    def __call__(self, notification: SessionNotification) -> None:
        update = notification.update
        if isinstance(update, AgentMessageChunkSessionUpdate):
            assert isinstance(update.content, TextContentBlock)
            session = notification.session_id
            self.text[session] = self.text.get(session, "") + update.content.text
            self.chunks += 1
            self.first.set()


@asynccontextmanager
async def agent_session(
    pause: float, diagnostics: list[TransportDiagnostic]
) -> AsyncIterator[tuple[AcpClientPeer, Editor, Streamed]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        str(AGENT),
        str(pause),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    transport = open_process_transport(process, on_diagnostic=diagnostics.append)
    client = AcpClientPeer(transport)
    editor, streamed = Editor(), Streamed()
    client.handle_requests(editor)
    client.on_session_update(streamed)
    transport.start()
    try:
        yield client, editor, streamed
    finally:
        assert process.stdin is not None
        process.stdin.close()
        await asyncio.wait_for(process.wait(), budget(10))
        await transport.close()


async def open_session(client: AcpClientPeer) -> str:
    fs = FileSystemCapabilities(read_text_file=True)
    initialize = InitializeRequest(
        protocol_version=1, client_capabilities=ClientCapabilities(fs=fs)
    )
    initialized = await asyncio.wait_for(client.initialize(initialize), budget(10))
    assert initialized.protocol_version == 1
    assert initialized.agent_capabilities is not None
    assert initialized.agent_capabilities.load_session is False
    session = await client.session_new(NewSessionRequest(cwd=str(Path.cwd()), mcp_servers=[]))
    return session.session_id


def prompt(session_id: str, text: str) -> PromptRequest:
    return PromptRequest(session_id=session_id, prompt=[TextContentBlock(type="text", text=text)])


async def test_our_client_peer_drives_an_official_sdk_agent_through_a_prompt() -> None:
    diagnostics: list[TransportDiagnostic] = []
    async with agent_session(0, diagnostics) as (client, editor, streamed):
        session_id = await open_session(client)
        answer = await asyncio.wait_for(
            client.session_prompt(prompt(session_id, "hello agent")), budget(10)
        )
        assert answer.stop_reason == "end_turn"
        # The agent asked our handler, which allowed; then read the file through the other one.
        assert [asked.tool_call.title for asked in editor.asked] == ["Read /notes.txt"]
        assert streamed.text[session_id] == "notes from /notes.txt: hello agent "
        assert streamed.chunks == 5
    assert diagnostics == []


async def test_a_cancel_stops_the_reply_in_mid_stream_and_the_session_goes_on() -> None:
    diagnostics: list[TransportDiagnostic] = []
    async with agent_session(0.02, diagnostics) as (client, _, streamed):
        session_id = await open_session(client)
        long = " ".join(f"word{n}" for n in range(200))
        turn = asyncio.ensure_future(client.session_prompt(prompt(session_id, long)))
        await asyncio.wait_for(streamed.first.wait(), budget(10))
        await client.notify_session_cancel(CancelNotification(session_id=session_id))
        stopped = await asyncio.wait_for(turn, budget(10))
        assert stopped.stop_reason == "cancelled"
        full = f"notes from /notes.txt: {long} "
        cut = streamed.text[session_id]
        assert full.startswith(cut)
        assert 0 < len(cut) < len(full)

        streamed.text.clear()
        again = await asyncio.wait_for(
            client.session_prompt(prompt(session_id, "more")), budget(10)
        )
        assert again.stop_reason == "end_turn"
        assert streamed.text[session_id] == "notes from /notes.txt: more "
    assert diagnostics == []
