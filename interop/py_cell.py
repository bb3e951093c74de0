"""One Python cell of the interop matrix: the Python client against the runtime named on the
command line. Prints what the client saw as JSON (time values removed) on stdout, in the wire
form (`dsh_sdk.encode`), so it compares with the TypeScript cells.

    python py_cell.py <runtime> <image>                        the image and delegation script
    python py_cell.py --versions <runtime> <client> <runtime>  the version axis (1 or 2 each)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from dsh_sdk import InitializeParams, SessionEventNotification, SessionStatusNotification, encode
from dsh_sdk.client import (
    CapabilityNotSupportedError,
    HarnessClient,
    HarnessNotification,
    image_from_file,
    text_block,
)


def without_time(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_time(v) for k, v in value.items() if k != "time"}
    if isinstance(value, list):
        return [without_time(v) for v in value]
    return value


async def image_script(runtime_launcher: str, image_path: str) -> dict[str, Any]:
    params = InitializeParams(
        cwd=os.getcwd(), provider="echo", model="echo-1", reasoning_effort="low"
    )
    client = await HarnessClient.spawn(command=[runtime_launcher], initialize=params)
    image = image_from_file(image_path)
    runs = [
        await client.run([text_block("describe this picture"), image], session_id="interop"),
        await client.run("/delegate count the colours", session_id="interop"),
    ]
    shutdown = await client.shutdown()
    return {
        "serverInfo": encode(client.server_info),
        "runs": [
            {
                "sessionId": run.session_id,
                "messageId": run.message_id,
                "finalResponse": run.final_response,
                "finishReason": run.finish_reason,
                "events": [encode(event) for event in run.events],
                "notifications": [
                    {"method": n.method, "params": encode(n.params)} for n in run.notifications
                ],
            }
            for run in runs
        ],
        "shutdown": {"endedBy": shutdown.ended_by, "exitCode": shutdown.exit_code},
    }


async def call_or_refusal(call: Callable[[], Awaitable[Any]]) -> dict[str, Any]:
    """What a version 2 call did: its result, or the capability it was refused for (not sent)."""
    try:
        return {"result": encode(await call())}
    except CapabilityNotSupportedError as error:
        return {"refused": error.capability}


async def version_script(
    runtime_launcher: str, client_version: str, runtime_version: str
) -> dict[str, Any]:
    client = await HarnessClient.spawn(
        command=[runtime_launcher, "--protocol-version", runtime_version],
        env={"DSH_SDK_RUNTIME_CHUNK_DELAY_MS": "100"},
        initialize=InitializeParams(cwd=os.getcwd(), provider="echo", model="echo-1"),
        protocol_version=None if client_version == "1" else int(client_version),
    )
    chunk, idle = asyncio.Event(), asyncio.Event()
    finish: list[str] = []

    def watch(n: HarnessNotification) -> None:
        params = n.params
        if isinstance(params, SessionEventNotification) and params.session_id == "cancel":
            if params.event.type == "assistant/chunk":
                chunk.set()
            if params.event.type == "turn/end":
                finish.append(encode(params.event)["data"]["reason"]["kind"])
        if isinstance(params, SessionStatusNotification) and (
            params.session_id == "cancel" and params.status == "idle"
        ):
            idle.set()

    client.on_notification(watch)
    run = asyncio.ensure_future(
        client.run("Tell me everything about the sea, slowly, in many words", session_id="cancel")
    )
    await chunk.wait()
    run.cancel()
    try:
        await run
        raise AssertionError("the cancelled run returned")
    except asyncio.CancelledError as cancelled:
        # Python 3.11 keeps the message on the task's CancelledError; 3.10 chains the one raised.
        message = f"{cancelled} {cancelled.__context__}"
    if "cannot interrupt" in message:
        cancelled_run: dict[str, Any] = {
            "interrupted": False,
            "finishReason": None,
            "cannotInterrupt": True,
        }
    else:
        await (
            idle.wait()
        )  # CancelledError comes once the interrupt is answered; the turn ends after
        cancelled_run = {"interrupted": True, "finishReason": finish[-1]}
    interrupt = await call_or_refusal(lambda: client.interrupt("cancel"))
    close = await call_or_refusal(lambda: client.close_session("cancel"))
    later = await client.run("after", session_id="later")
    shutdown = await client.shutdown()
    return {
        "protocolVersion": client.protocol_version,
        "capabilities": encode(client.capabilities),
        "cancelledRun": cancelled_run,
        "interrupt": interrupt,
        "close": close,
        "laterRun": {"finalResponse": later.final_response, "finishReason": later.finish_reason},
        "shutdown": {"endedBy": shutdown.ended_by, "exitCode": shutdown.exit_code},
    }


async def main(args: list[str]) -> None:
    if args[0] == "--versions":
        report = await version_script(args[1], args[2], args[3])
    else:
        report = await image_script(args[0], args[1])
    sys.stdout.write(json.dumps(without_time(report)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
