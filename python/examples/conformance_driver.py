"""A conformance driver for dsh_sdk.client (docs/conformance.md, "Writing a driver"):

    dsh-sdk conformance client -- python python/examples/conformance_driver.py

For each scenario the kit starts it with DSH_CONFORMANCE_SCENARIO, DSH_CONFORMANCE_PLAN and
DSH_SDK_RUNTIME (the runtime command, a JSON array); it runs the plan with the client and prints
one result line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from typing import Any

from dsh_sdk import InitializeParams, decode
from dsh_sdk.client import (
    CapabilityNotSupportedError,
    HarnessClient,
    JsonRpcResponseError,
    ProtocolError,
    RequestTimeoutError,
    RuntimeExitedError,
    RunTimeoutError,
)


def class_of(error: BaseException) -> str:
    """The kit's error classes (docs/conformance.md), from this client's errors."""
    if isinstance(error, RuntimeExitedError):
        return "runtime-exited"
    if isinstance(error, CapabilityNotSupportedError):
        return "capability-missing"
    if isinstance(error, (RunTimeoutError, RequestTimeoutError)):
        return "timeout"
    if isinstance(error, ProtocolError):
        return "protocol-error"
    if isinstance(error, JsonRpcResponseError):
        return "rpc-error"
    return "other"


async def main() -> dict[str, Any]:
    plan = json.loads(os.environ.get("DSH_CONFORMANCE_PLAN", "{}"))
    command = json.loads(os.environ.get("DSH_SDK_RUNTIME", "[]"))
    result: dict[str, Any] = {
        "scenario": os.environ.get("DSH_CONFORMANCE_SCENARIO"),
        "finalText": None,
        "finishReason": None,
        "eventTypes": [],
        "errors": [],
    }

    def record(stage: str, error: BaseException) -> None:
        code = error.code if isinstance(error, JsonRpcResponseError) else None
        entry = {"stage": stage, "class": class_of(error), "code": code, "message": str(error)}
        result["errors"].append(entry)

    try:
        route = decode(InitializeParams, plan["route"])
        client = await HarnessClient.spawn(initialize=route, command=command)
    except Exception as error:
        record("spawn", error)
        return result
    try:
        stream = client.stream_text(plan["prompt"], session_id=plan["sessionId"])
        run = None
        async for _delta in stream:
            if plan["stop"] == "first-delta":
                try:
                    run = await stream.interrupt()
                except CapabilityNotSupportedError as error:
                    record("run", error)
                    stream.result.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await stream.result
                break
        if run is None and not stream.result.cancelled():
            run = await stream
        if run is not None:
            result["finalText"] = run.final_response
            result["finishReason"] = run.finish_reason
            result["eventTypes"] = [event.type for event in run.events]
    except Exception as error:
        record("run", error)
    if plan["closeAfter"]:
        try:
            await client.close_session(plan["sessionId"])
        except Exception as error:
            record("close", error)
    try:
        await client.shutdown()
    except Exception as error:
        record("shutdown", error)
    return result


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())), flush=True)
