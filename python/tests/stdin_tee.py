"""What a runtime received: its command behind a `tee` that copies its stdin to a file, read back
frame by frame (the client tests use it to tell what reached the runtime, and what did not)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from runtime_support import eventually

TEE: Final = 'set -o pipefail; tee "$1" | "${@:2}"'
"""Runs the command after `$1`, copying what its stdin receives to the file `$1`."""


class StdinTee:
    """A runtime command behind a `tee`: `command` to spawn, then what its stdin received."""

    def __init__(self, runtime: Sequence[str], directory: Path) -> None:
        self.path = directory / "received-by-runtime.ndjson"
        self.command = ["bash", "-c", TEE, "tee-runtime", str(self.path), *runtime]

    def frames(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text("utf-8").splitlines()]

    def methods(self) -> list[str]:
        return [frame["method"] for frame in self.frames() if "method" in frame]

    async def methods_once(self, count: int) -> list[str]:
        """The methods received, once there are `count` (tee writes the file after the pipe, so
        the runtime may answer a request before its copy is there). Frames arrive in order, so
        what was not received before the last one was never sent."""
        await eventually(lambda: len(self.methods()) >= count)
        return self.methods()
