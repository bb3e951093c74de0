"""The Python reference runtime: serves the protocol over stdio with an embedded, deterministic
echo agent (docs/reference-runtime.md). The twin of `packages/runtime`; the process entry is
`python -m dsh_sdk.runtime` (`__main__.py`)."""

from __future__ import annotations

from dsh_sdk.runtime.adapters import (
    DelegationOutcome,
    EchoAdapter,
    ModelAdapter,
    ModelPrompt,
    ModelReply,
    ModelRoute,
    PromptImage,
    cut_into_pieces,
    is_model_route,
    resolve_route,
)
from dsh_sdk.runtime.attachment_store import (
    AttachmentStore,
    StoredAttachment,
    attachment_id_of,
    default_attachment_directory,
)
from dsh_sdk.runtime.notifier import Notifier, NotifierGate, RuntimeStoppedError
from dsh_sdk.runtime.runtime import RuntimeEnd, describe_diagnostic, serve_runtime
from dsh_sdk.runtime.server import RuntimeServer, RuntimeServerOptions, ServerState
from dsh_sdk.runtime.version import RUNTIME_VERSION

__all__ = [
    "RUNTIME_VERSION",
    "AttachmentStore",
    "DelegationOutcome",
    "EchoAdapter",
    "ModelAdapter",
    "ModelPrompt",
    "ModelReply",
    "ModelRoute",
    "Notifier",
    "NotifierGate",
    "PromptImage",
    "RuntimeEnd",
    "RuntimeServer",
    "RuntimeServerOptions",
    "RuntimeStoppedError",
    "ServerState",
    "StoredAttachment",
    "attachment_id_of",
    "cut_into_pieces",
    "default_attachment_directory",
    "describe_diagnostic",
    "is_model_route",
    "resolve_route",
    "serve_runtime",
]
