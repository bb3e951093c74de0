"""Where the cross-checks find tsx, which runs the TypeScript side of a comparison."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def tsx_path() -> Path:
    """tsx as the generator's dependencies install it (scripts/setup.sh); fails the test, rather
    than skipping it, when node or tsx is missing."""
    tsx = REPO / "codegen/node_modules/.bin/tsx"
    if shutil.which("node") is None or not tsx.exists():
        pytest.fail("the cross-check needs node and codegen/node_modules: run scripts/setup.sh")
    return tsx
