"""protocols/acp/test-vectors through the generated Python ACP validators: the same verdicts, the
same violations in the same order and the same repaired values as the TypeScript validators
(packages/acp/test/vectors.test.ts runs the same files)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk.acp import PARAMS_VALIDATORS, RESULT_VALIDATORS

VECTORS = Path(__file__).resolve().parents[2] / "protocols" / "acp" / "test-vectors"
CASES = sorted(VECTORS.glob("*.json"))


def test_has_cases() -> None:
    assert len(CASES) >= 15


@pytest.mark.parametrize("path", CASES, ids=[path.stem for path in CASES])
def test_vector(path: Path) -> None:
    vector: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    table = PARAMS_VALIDATORS if vector["payload"] == "params" else RESULT_VALIDATORS
    validate = table[vector["method"]]
    value = copy.deepcopy(vector["value"])
    violations = [{"pointer": v.pointer, "message": v.message} for v in validate(value)]
    assert violations == vector["violations"]
    assert (not violations) is vector["valid"]
    assert value == vector.get("decoded", vector["value"])
