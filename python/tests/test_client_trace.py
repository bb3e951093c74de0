"""The `trace` option of the Python clients over real pipes: the client records its own
connection, each record is checked against the bytes that really went by (captured by `tee` on
both sides of the runtime), and the same session recorded by `bin/dsh-sdk trace` in front of the
runtime gives the same frames and findings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Final

import pytest

from conftest import Clients
from dsh_sdk.client import CLIENT_RECORDER, HarnessClient, TraceOptions
from runtime_support import ECHO_ROUTE, FIXTURES, REPOSITORY, RUNTIME_COMMANDS
from time_budget import budget

DSH_SDK: Final = REPOSITORY / "bin" / "dsh-sdk"
CLI_BUILT: Final = (REPOSITORY / "packages" / "cli" / "dist" / "main.js").is_file()
NOISY_RUNTIME: Final = (sys.executable, str(FIXTURES / "noisy_runtime.py"))
TEE: Final = 'set -o pipefail; tee "$1" | "${@:3}" | tee "$2"'


def read_records(path: Path) -> tuple[list[str], list[dict[str, Any]]]:
    lines = path.read_text("utf-8").split("\n")
    assert lines.pop() == ""
    return lines, [json.loads(line) for line in lines]


def check_frames(
    lines: list[str], records: list[dict[str, Any]], direction: str, wire: bytes
) -> list[dict[str, Any]]:
    """The frames of one direction against every non-blank line of the bytes, in order: line
    number, size, and the content exactly as sent."""
    sent = wire.split(b"\n")
    assert sent.pop() == b""  # every line was terminated
    expected = [(number, raw) for number, raw in enumerate(sent, 1) if raw.rstrip(b"\r") != b""]
    frames = [
        (record, line)
        for record, line in zip(records, lines, strict=True)
        if record["type"] == "frame" and record["dir"] == direction
    ]
    assert [record["line"] for record, _ in frames] == [number for number, _ in expected]
    for (record, line), (_, raw) in zip(frames, expected, strict=True):
        text = raw.rstrip(b"\r").decode("utf-8")
        assert record["bytes"] == len(raw)
        if "json" in record:
            assert line.endswith(f',"json":{text}}}')
        else:
            assert record["text"] == text
    return [record for record, _ in frames]


async def test_a_delegate_turn_is_recorded_record_by_record(
    clients: Clients, tmp_path: Path
) -> None:
    command = ["bash", "-c", TEE, "tee-runtime", str(tmp_path / "sent"), str(tmp_path / "received")]
    command += RUNTIME_COMMANDS["py"]
    trace = tmp_path / "client.trace.ndjson"
    client = await clients.spawn(command=command, trace=trace)
    result = await client.run("/delegate hello child", session_id="s1", timeout=budget(20))
    assert result.finish_reason == "completed"
    assert (await client.shutdown(timeout=budget(1.0))).has_exited

    lines, records = read_records(trace)
    assert records[0]["recorder"] == CLIENT_RECORDER
    assert records[0]["command"] == command
    sent = check_frames(lines, records, "clientToServer", (tmp_path / "sent").read_bytes())
    received = check_frames(lines, records, "serverToClient", (tmp_path / "received").read_bytes())
    assert [f["method"] for f in sent] == ["initialize", "session/prompt", "shutdown"]
    assert any(f.get("method") == "subagent.started" for f in received)
    for request in sent:
        answer = next(f for f in received if f.get("request") == request["seq"])
        assert (answer["kind"], answer["id"], answer["method"]) == (
            "result",
            request["id"],
            request["method"],
        )
    assert not any("findings" in r for r in records if r["type"] == "frame")
    exit_record = records[-1]
    assert exit_record["type"] == "exit"
    assert client.exit is not None
    assert exit_record["exitCode"] == client.exit.exit_code
    assert exit_record["frames"] == {"clientToServer": len(sent), "serverToClient": len(received)}


def timeless(frame: dict[str, Any]) -> dict[str, Any]:
    """A frame without its times, and without the JSON parser's own words (as in diagnostics)."""
    frame = {k: v for k, v in frame.items() if k not in ("t", "latencyMs")}
    for finding in frame.get("findings", []):
        if finding["reason"] == "invalid-json":
            finding["message"] = finding["message"].split(":")[0]
    return frame


@pytest.mark.needs_ts
@pytest.mark.parametrize(
    "runtime", [RUNTIME_COMMANDS["ts"], NOISY_RUNTIME], ids=["ts-runtime", "noisy-py-runtime"]
)
def test_the_sync_client_and_the_proxy_record_the_same_frames(
    tmp_path: Path, runtime: tuple[str, ...]
) -> None:
    assert CLI_BUILT, "packages/cli is not built: run `bash scripts/setup.sh` first"
    proxy_trace, client_trace = tmp_path / "proxy.trace.ndjson", tmp_path / "client.trace.ndjson"
    command = [str(DSH_SDK), "trace", "--quiet", "--out", str(proxy_trace), "--", *runtime]
    findings: list[str] = []
    options = TraceOptions(path=client_trace, on_finding=lambda f, _c: findings.append(f["reason"]))
    with HarnessClient.sync(initialize=ECHO_ROUTE, command=command, trace=options) as client:
        result = client.run("/delegate hello child", session_id="s1", timeout=budget(20))
        assert result.finish_reason == "completed"
    _, proxy = read_records(proxy_trace)
    _, records = read_records(client_trace)
    frames = [r for r in records if r["type"] == "frame"]
    assert [timeless(f) for f in frames] == [timeless(r) for r in proxy if r["type"] == "frame"]
    invalid = [f for f in frames if "findings" in f]
    assert bool(invalid) == (runtime == NOISY_RUNTIME)
    assert findings == [x["reason"] for f in invalid for x in f["findings"]]
    for trace in (proxy, records):
        assert (trace[-1]["type"], trace[-1]["exitCode"]) == ("exit", 0)
        assert trace[-1]["findings"] == len(findings)


async def test_a_trace_file_that_fails_is_reported_and_the_connection_goes_on(
    clients: Clients, tmp_path: Path
) -> None:
    errors: list[Exception] = []
    missing = tmp_path / "no-such-directory" / "run.trace.ndjson"
    client = await clients.spawn(trace=TraceOptions(path=missing, on_error=errors.append))
    assert (
        await client.run("still here", session_id="s1", timeout=budget(20))
    ).finish_reason == "completed"
    assert len(errors) == 1 and isinstance(errors[0], FileNotFoundError)
    with pytest.warns(RuntimeWarning, match="stopped"):
        other = await clients.spawn(trace=missing)
    assert (
        await other.run("here too", session_id="s2", timeout=budget(20))
    ).finish_reason == "completed"
