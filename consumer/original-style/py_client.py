"""The Python SDK client against a runtime given as a JSON command list (the original-style
server of this folder, in the consumer test). Prints what it saw as one JSON object."""

import asyncio
import json
import sys

from dsh_sdk import InitializeParams
from dsh_sdk.client import HarnessClient


async def main(command: list[str]) -> None:
    route = InitializeParams(cwd=".", provider="echo", model="echo-1")
    client = await HarnessClient.spawn(initialize=route, command=command)
    first = await client.run("Hello")
    second = await client.run("again", session_id="s-2")
    report = await client.shutdown()
    print(
        json.dumps(
            {
                "protocolVersion": client.protocol_version,
                "answers": [first.final_response, second.final_response],
                "finishReasons": [first.finish_reason, second.finish_reason],
                "endedBy": report.ended_by,
                "exitCode": report.exit_code,
            }
        )
    )


asyncio.run(main(json.loads(sys.argv[1])))
