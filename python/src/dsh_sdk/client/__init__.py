"""The Python client of the DeepSeek Harness SDK protocol: spawns a runtime, shakes hands, runs
prompts to idle and stops the runtime with a bounded ladder. The twin of `@dsh-sdk/client`.

asyncio: `async with await HarnessClient.spawn(initialize=...) as client: await client.run("hi")`.
Scripts: `with HarnessClient.sync(initialize=...) as client: client.run("hi")`.
"""

from __future__ import annotations

# Every error a client call can raise, the protocol's own included, so callers catch them here.
from dsh_sdk._gen.constants import ErrorCode
from dsh_sdk.client.connection_trace import CLIENT_RECORDER, TraceOptions
from dsh_sdk.client.content import (
    PromptInput,
    detect_image_mime_type,
    image_from_bytes,
    image_from_file,
    mime_type_from_extension,
    text_block,
    to_content_blocks,
)
from dsh_sdk.client.errors import (
    CapabilityName,
    CapabilityNotSupportedError,
    ClientClosedError,
    InvalidParamsError,
    RunStage,
    RuntimeExit,
    RuntimeExitedError,
    RunTimeoutError,
    RuntimeSpawnError,
    RuntimeSurvivedKillError,
    describe_exit,
)
from dsh_sdk.client.harness_client import (
    DEFAULT_INITIALIZE_TIMEOUT,
    DEFAULT_REQUEST_TIMEOUT,
    HarnessClient,
)
from dsh_sdk.client.notifications import (
    HarnessNotification,
    NotificationListener,
    NotificationParams,
)
from dsh_sdk.client.run_cancellation import cancelled_run_result
from dsh_sdk.client.run_stream import RunHandle, RunStream, TextStream
from dsh_sdk.client.run_tracker import RunResult
from dsh_sdk.client.runtime_launcher import (
    PYTHON_RUNTIME_COMMAND,
    PYTHON_RUNTIME_LAUNCHER,
    REFERENCE_RUNTIME_LAUNCHER,
)
from dsh_sdk.client.session_events import chunk_text_of, text_delta_of, text_of
from dsh_sdk.client.shutdown_ladder import (
    DEFAULT_SHUTDOWN_STEP_TIMEOUT,
    ShutdownReport,
    ShutdownStep,
    ShutdownStepReport,
)
from dsh_sdk.client.stderr_tail import DEFAULT_STDERR_TAIL_BYTES
from dsh_sdk.client.sync_client import (
    SyncHarnessClient,
    SyncRunHandle,
    SyncRunStream,
    SyncTextStream,
)
from dsh_sdk.errors import JsonRpcResponseError, RequestTimeoutError, TransportClosedError
from dsh_sdk.peer_support import ProtocolError

__all__ = [
    "CLIENT_RECORDER",
    "DEFAULT_INITIALIZE_TIMEOUT",
    "DEFAULT_REQUEST_TIMEOUT",
    "DEFAULT_SHUTDOWN_STEP_TIMEOUT",
    "DEFAULT_STDERR_TAIL_BYTES",
    "PYTHON_RUNTIME_COMMAND",
    "PYTHON_RUNTIME_LAUNCHER",
    "REFERENCE_RUNTIME_LAUNCHER",
    "CapabilityName",
    "CapabilityNotSupportedError",
    "ClientClosedError",
    "ErrorCode",
    "HarnessClient",
    "HarnessNotification",
    "InvalidParamsError",
    "JsonRpcResponseError",
    "NotificationListener",
    "NotificationParams",
    "PromptInput",
    "ProtocolError",
    "RequestTimeoutError",
    "RunHandle",
    "RunResult",
    "RunStage",
    "RunStream",
    "RunTimeoutError",
    "RuntimeExit",
    "RuntimeExitedError",
    "RuntimeSpawnError",
    "RuntimeSurvivedKillError",
    "ShutdownReport",
    "ShutdownStep",
    "ShutdownStepReport",
    "SyncHarnessClient",
    "SyncRunHandle",
    "SyncRunStream",
    "SyncTextStream",
    "TextStream",
    "TraceOptions",
    "TransportClosedError",
    "cancelled_run_result",
    "chunk_text_of",
    "describe_exit",
    "detect_image_mime_type",
    "image_from_bytes",
    "image_from_file",
    "mime_type_from_extension",
    "text_block",
    "text_delta_of",
    "text_of",
    "to_content_blocks",
]
