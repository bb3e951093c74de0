"""One Python cell of the interop matrix: the Python client against the runtime named on the
command line. Prints what the client saw as JSON (time values removed) on stdout, in the wire
form (`dsh_sdk.encode`), so it compares with the TypeScript cells."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from dsh_sdk import InitializeParams, encode
from dsh_sdk.client import HarnessClient, image_from_file, text_block


def without_time(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_time(v) for k, v in value.items() if k != "time"}
    if isinstance(value, list):
        return [without_time(v) for v in value]
    return value


async def main(runtime_launcher: str, image_path: str) -> None:
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
    report = {
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
    sys.stdout.write(json.dumps(without_time(report)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
