"""The fast path of the ACP validators (`fastValidators` in protocols/acp/protocol.targets.json)
against the full check behind it, on the ACP vectors and the bench's frames and on every value
fast_path_agreement.py derives from them: valid ones, invalid ones and ones to repair."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk.acp import PARAMS_VALIDATORS, RESULT_VALIDATORS
from dsh_sdk.acp._gen import validators
from fast_path_agreement import agree, fast_check_of, full_check_of

ROOT = Path(__file__).resolve().parents[2]
VECTORS = sorted((ROOT / "protocols" / "acp" / "test-vectors").glob("*.json"))
sys.path.insert(0, str(ROOT / "python" / "bench"))
import acp_frames  # noqa: E402  (the bench's frames, beside the vectors)


def vector_cases() -> list[tuple[str, Any]]:
    cases = []
    for path in VECTORS:
        vector = json.loads(path.read_text(encoding="utf-8"))
        table = PARAMS_VALIDATORS if vector["payload"] == "params" else RESULT_VALIDATORS
        cases.append((table[vector["method"]].__name__, vector["value"]))
    return cases


def frame_cases() -> list[tuple[str, Any]]:
    # One of each kind of frame: a prompt, a tool call, a thought and a message chunk.
    frames = [json.loads(line) for line in acp_frames.acp_lines(12)]
    picked = [frames[0], frames[10], frames[3], frames[1]]
    return [(PARAMS_VALIDATORS[f["method"]].__name__, f["params"]) for f in picked]


def full_of(name: str) -> Any:
    return full_check_of(validators, getattr(validators, name))


@pytest.mark.parametrize("source", ["vectors", "frames"])
def test_fast_path_agrees_with_the_full_check(source: str) -> None:
    cases = vector_cases() if source == "vectors" else frame_cases()
    counts = agree(validators, full_of, cases)
    # Not vacuous: the fast check said yes and no, and values were invalid and repaired.
    assert counts["fast"] >= 50 and counts["invalid"] >= 200, counts
    if source == "vectors":
        assert counts["repaired"] >= 5, counts


def test_every_public_validator_has_a_fast_path() -> None:
    for validate in {*PARAMS_VALIDATORS.values(), *RESULT_VALIDATORS.values()}:
        assert fast_check_of(validators, validate).__name__.startswith("_valid")


def test_the_bench_frames_take_the_fast_path() -> None:
    for name, params in frame_cases():
        assert fast_check_of(validators, getattr(validators, name))(params), name
