"""Peer: a transport over its own stdin and stdout (`open_stdio_transport`) that answers `echo`
with its params and `shutdown` with `{}`, then exits when its input ends or after `shutdown`."""

from __future__ import annotations

import asyncio
from typing import Any

from dsh_sdk.inbound_handlers import RequestContext
from dsh_sdk.stdio import open_stdio_transport


async def main() -> None:
    transport = await open_stdio_transport()
    done = asyncio.Event()

    def echo(params: Any, context: RequestContext) -> Any:
        return params

    async def shutdown(params: Any, context: RequestContext) -> Any:
        asyncio.get_running_loop().call_soon(done.set)
        return {}

    transport.on_request("echo", echo)
    transport.on_request("shutdown", shutdown)
    transport.start()
    closed = asyncio.ensure_future(transport.wait_closed())
    shut_down = asyncio.ensure_future(done.wait())
    await asyncio.wait((closed, shut_down), timeout=30, return_when=asyncio.FIRST_COMPLETED)
    await asyncio.sleep(0.05)  # lets the answer to shutdown go out
    await transport.close()
    for task in (closed, shut_down):
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
