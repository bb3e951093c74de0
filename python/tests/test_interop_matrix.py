"""The interop matrix: each client (TypeScript, Python) against each reference runtime
(TypeScript, Python), over real child processes and pipes. All four cells run the same script
(interop/README.md) and must report the same thing, apart from `time` values."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest

from time_budget import budget

REPO = Path(__file__).resolve().parents[2]
RUNTIMES = {
    "ts-runtime": REPO / "bin" / "dsh-sdk-runtime",
    "py-runtime": REPO / "bin" / "dsh-sdk-runtime-py",
}
IMAGE_BYTES = 3 * 1024 * 1024


def png_of_size(size: int) -> bytes:
    """A real PNG header and IHDR chunk followed by deterministic filler, `size` bytes in all."""
    header = b"\x89PNG\r\n\x1a\n"
    ihdr_data = (64).to_bytes(4, "big") + (64).to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    ihdr = (
        len(ihdr_data).to_bytes(4, "big")
        + b"IHDR"
        + ihdr_data
        + zlib.crc32(b"IHDR" + ihdr_data).to_bytes(4, "big")
    )
    start = header + ihdr
    filler = bytes((i * 31 + 7) % 251 for i in range(size - len(start)))
    return start + filler


def run_cell(client: str, runtime: Path, image: Path) -> dict[str, Any]:
    if client == "ts-client":
        node = shutil.which("node")
        assert node, "the TypeScript cells need node on PATH"
        assert (REPO / "packages/client/dist/index.js").exists(), "run `pnpm build` first"
        command = [node, str(REPO / "interop/ts-cell.mjs"), str(runtime), str(image)]
    else:
        command = [sys.executable, str(REPO / "interop/py_cell.py"), str(runtime), str(image)]
    done = subprocess.run(command, capture_output=True, timeout=budget(120), cwd=REPO, check=False)
    assert done.returncode == 0, f"{client} x {runtime.name} failed:\n{done.stderr.decode()}"
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    image = tmp_path_factory.mktemp("interop") / "picture.png"
    image.write_bytes(png_of_size(IMAGE_BYTES))
    return {
        f"{client} x {name}": run_cell(client, launcher, image)
        for client in ("ts-client", "py-client")
        for name, launcher in RUNTIMES.items()
    }


def test_every_cell_reports_the_same_runs(reports: dict[str, dict[str, Any]]) -> None:
    (first_name, first), *others = reports.items()
    for name, report in others:
        assert report == first, f"{name} differs from {first_name}"


def test_the_image_run_echoes_and_stores_the_image(reports: dict[str, dict[str, Any]]) -> None:
    image_run = next(iter(reports.values()))["runs"][0]
    assert image_run["messageId"] == "interop/m1"
    assert image_run["finishReason"] == "completed"
    assert image_run["finalResponse"].startswith("Echo: describe this picture\n[image image/png, ")
    assert f", {IMAGE_BYTES} bytes, sha256-" in image_run["finalResponse"]
    user_message = next(e for e in image_run["events"] if e["type"] == "user/message")
    image_block = user_message["data"]["content"][1]
    assert image_block["attachment"]["byteLength"] == IMAGE_BYTES
    assert "data" not in image_block


def test_the_delegate_run_reports_its_child(reports: dict[str, dict[str, Any]]) -> None:
    delegate_run = next(iter(reports.values()))["runs"][1]
    methods = [n["method"] for n in delegate_run["notifications"]]
    assert methods.index("subagent.started") < methods.index("subagent.finished")
    finished = next(n for n in delegate_run["notifications"] if n["method"] == "subagent.finished")
    child = finished["params"]["childSessionId"]
    assert child == "interop/child1"
    assert finished["params"]["lastAssistantMessage"] == [
        {"type": "text", "text": "Echo: count the colours"}
    ]
    assert any(n["params"].get("sessionId") == child for n in delegate_run["notifications"])
    assert delegate_run["finalResponse"] == f"Delegated to {child}: Echo: count the colours"


def test_every_cell_shuts_down_cleanly(reports: dict[str, dict[str, Any]]) -> None:
    for name, report in reports.items():
        assert report["shutdown"] == {"endedBy": "shutdown-request", "exitCode": 0}, name


# --- the version axis ------------------------------------------------------------------------

VERSION_PAIRS = {
    "v2 client x v1 runtime": ("2", "1"),
    "v1 client x v2 runtime": ("1", "2"),
    "v2 client x v2 runtime": ("2", "2"),
}
"""Client and runtime protocol versions: a version 1 client sends no `protocolVersion`; a
version 1 runtime runs with `--protocol-version 1`."""


def run_version_cell(client: str, runtime: Path, versions: tuple[str, str]) -> dict[str, Any]:
    if client == "ts-client":
        node = shutil.which("node")
        assert node, "the TypeScript cells need node on PATH"
        command = [node, str(REPO / "interop/ts-cell.mjs")]
    else:
        command = [sys.executable, str(REPO / "interop/py_cell.py")]
    command += ["--versions", str(runtime), *versions]
    done = subprocess.run(command, capture_output=True, timeout=budget(120), cwd=REPO, check=False)
    assert done.returncode == 0, f"{client} x {runtime.name} {versions}:\n{done.stderr.decode()}"
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@pytest.fixture(scope="module")
def version_reports() -> dict[str, dict[str, dict[str, Any]]]:
    return {
        pair: {
            f"{client} x {name}": run_version_cell(client, launcher, versions)
            for client in ("ts-client", "py-client")
            for name, launcher in RUNTIMES.items()
        }
        for pair, versions in VERSION_PAIRS.items()
    }


@pytest.mark.parametrize("pair", VERSION_PAIRS)
def test_every_language_cell_agrees_on_each_version_pair(
    version_reports: dict[str, dict[str, dict[str, Any]]], pair: str
) -> None:
    (first_name, first), *others = version_reports[pair].items()
    for name, report in others:
        assert report == first, f"{pair}: {name} differs from {first_name}"


@pytest.mark.parametrize("pair", ["v2 client x v1 runtime", "v1 client x v2 runtime"])
def test_below_version_2_on_either_side_nothing_is_interrupted_or_sent(
    version_reports: dict[str, dict[str, dict[str, Any]]], pair: str
) -> None:
    report = next(iter(version_reports[pair].values()))
    assert (report["protocolVersion"], report["capabilities"]) == (1, {})
    assert report["cancelledRun"] == {
        "interrupted": False,
        "finishReason": None,
        "cannotInterrupt": True,
    }
    assert report["interrupt"] == {"refused": "sessionInterrupt"}
    assert report["close"] == {"refused": "sessionClose"}
    assert report["laterRun"] == {"finalResponse": "Echo: after", "finishReason": "completed"}


def test_version_2_on_both_sides_interrupts_and_closes(
    version_reports: dict[str, dict[str, dict[str, Any]]],
) -> None:
    report = next(iter(version_reports["v2 client x v2 runtime"].values()))
    assert report["protocolVersion"] == 2
    assert report["capabilities"] == {"sessionInterrupt": True, "sessionClose": True}
    assert report["cancelledRun"] == {"interrupted": True, "finishReason": "aborted"}
    assert report["interrupt"] == {"result": {"found": True, "wasRunning": False}}
    assert report["close"] == {"result": {"found": True}}
    assert report["shutdown"] == {"endedBy": "shutdown-request", "exitCode": 0}
