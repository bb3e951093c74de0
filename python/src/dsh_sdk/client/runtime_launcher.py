"""Where the reference runtimes' launchers are, and the default runtime command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

__all__ = [
    "PYTHON_RUNTIME_COMMAND",
    "PYTHON_RUNTIME_LAUNCHER",
    "REFERENCE_RUNTIME_LAUNCHER",
    "REPOSITORY_ROOT",
]

REPOSITORY_ROOT: Final = Path(__file__).resolve().parents[4]
"""The repository root, found from this module (`python/src/dsh_sdk/client/`). Meaningful only in
a checkout: an installed package has no launchers beside it."""

REFERENCE_RUNTIME_LAUNCHER: Final = REPOSITORY_ROOT / "bin" / "dsh-sdk-runtime"
"""The TypeScript reference runtime's launcher, `bin/dsh-sdk-runtime` (build it with `pnpm
build`)."""

PYTHON_RUNTIME_LAUNCHER: Final = REPOSITORY_ROOT / "bin" / "dsh-sdk-runtime-py"
"""The Python reference runtime's launcher, `bin/dsh-sdk-runtime-py`."""

PYTHON_RUNTIME_COMMAND: Final = (sys.executable, "-m", "dsh_sdk.runtime")
"""The default runtime of `HarnessClient.spawn`: the Python reference runtime, run by this
interpreter (so it works wherever this package is installed, checkout or not)."""
