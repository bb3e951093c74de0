"""The Python `TraceRecorder` against the TypeScript one: the same scripts of chunks (every framing,
message and invalid vector, and a conversation that breaks each pairing rule) fed to both with a
clock that never moves give the same records, byte for byte, in every chunking. Plus what the
recorder promises on its own: bounded pending requests, the head of a dropped line, the writer."""

from __future__ import annotations

import base64
import json
import random
import subprocess
from pathlib import Path
from typing import Any, Final

from dsh_sdk._gen.methods import METHODS
from dsh_sdk.trace_recorder import TraceRecorder
from time_budget import budget
from tsx_support import tsx_path

VECTORS: Final = Path(__file__).resolve().parents[2] / "test-vectors"
DIRECTION_OF: Final[dict[str, str]] = {info.wire_name: info.direction for info in METHODS}
OTHER: Final = {"clientToServer": "serverToClient", "serverToClient": "clientToServer"}

Step = dict[str, Any]
Script = dict[str, Any]


def chunkings(data: bytes, seed: int, split_at: list[int] | None = None) -> list[list[bytes]]:
    """The bytes whole, cut at the vector's offsets, and cut at random (inside UTF-8 too)."""
    rng = random.Random(seed)
    cuts = [sorted(split_at or [])]
    cuts.append(sorted(rng.sample(range(1, len(data)), min(len(data) - 1, 12))) if data else [])
    ways = [[data]]
    for offsets in cuts:
        pieces, start = [], 0
        for offset in offsets:
            if start < offset < len(data):
                pieces.append(data[start:offset])
                start = offset
        pieces.append(data[start:])
        ways.append([p for p in pieces if p])
    return ways


def push(direction: str, data: bytes) -> Step:
    return {"push": direction, "data": base64.b64encode(data).decode("ascii")}


def framing_scripts() -> list[Script]:
    """Every framing vector as the runtime's stdout and as the client's output, with its limit,
    its stream's end, and the recording's finish."""
    scripts: list[Script] = []
    for index, path in enumerate(sorted((VECTORS / "framing/read").glob("*.ndjson"))):
        expect = json.loads(path.with_name(path.stem + ".expect.json").read_text("utf-8"))
        options = {"headBytes": 16}
        if "maxFrameBytes" in expect:
            options["maxFrameBytes"] = expect["maxFrameBytes"]
        data = path.read_bytes()
        for direction in ("serverToClient", "clientToServer"):
            for way, pieces in enumerate(chunkings(data, index, expect.get("splitAt"))):
                steps = [push(direction, piece) for piece in pieces]
                steps += [{"end": direction}, {"finish": {"exitCode": 0, "signal": None}}]
                scripts.append(
                    {"name": f"{path.stem} {direction} {way}", "options": options, "steps": steps}
                )
    return scripts


def conversation_steps(lines: list[str]) -> list[tuple[str, bytes]]:
    """Lines of a vector in the directions a conversation sends them: a message with a method the
    way the IDL sends it, a response the other way than the last request."""
    sent: list[tuple[str, bytes]] = []
    last_request = "clientToServer"
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        method = value.get("method") if isinstance(value, dict) else None
        if isinstance(method, str):
            direction = DIRECTION_OF.get(method, "clientToServer")
            if "id" in value:
                last_request = direction
        else:
            direction = OTHER[last_request]
        sent.append((direction, line.encode("utf-8") + b"\n"))
    return sent


def message_scripts() -> list[Script]:
    scripts: list[Script] = []
    paths = sorted((VECTORS / "messages").glob("*/*.ndjson")) + sorted(
        (VECTORS / "invalid").glob("*/*.ndjson")
    )
    for index, path in enumerate(paths):
        lines = [line for line in path.read_text("utf-8").split("\n") if line]
        sent = conversation_steps(lines)
        for way in range(2):
            steps: list[Step] = []
            for direction, data in sent:
                pieces = chunkings(data, index * 7 + way)[1 + way]
                steps += [push(direction, piece) for piece in pieces]
            steps.append({"finish": {"exitCode": None, "signal": "SIGTERM"}})
            scripts.append(
                {"name": f"{path.parent.name}/{path.stem} {way}", "options": {}, "steps": steps}
            )
    return scripts


CONVERSATION: Final = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1"}}',
    '{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"deepseek-harness-sdk-runtime","version":"x"}}}',
    '{"jsonrpc":"2.0","id":"1","result":{}}',
    '{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","contentBlocks":[]}}',
    '{"jsonrpc":"2.0","id":2.0,"method":"session/prompt","params":{"sessionId":"s","contentBlocks":[{"type":"text","text":"é"}]}}',
    '{"jsonrpc":"2.0","id":2,"result":{"messageId":7}}',
    '{"jsonrpc":"2.0","id":3,"method":"session.status","params":{"sessionId":"s","status":"idle"}}',
    '{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"s"}}',
    '{"jsonrpc":"2.0","id":4,"method":"no/such/method"}',
    '{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"Method not found"}}',
    '{"jsonrpc":"2.0","id":5,"method":"shutdown"}',
    '{"jsonrpc":"2.0","method":"session.event","params":{"sessionId":"s","event":{"type":"turn/start","seq":-1,"time":0,"data":{"turn":0}}}}',
    '{"jsonrpc":"2.0","id":6,"method":"session/interrupt","params":{"sessionId":""}}',
    '{"jsonrpc":"2.0","id":7,"method":"session/close","params":{"sessionId":"s"}}\r',
    '{"jsonrpc":"2.0",\r"id":7,"result":{"found":"yes"}}',
    '[{"jsonrpc":"2.0","method":"session.status"}]',
    '{"jsonrpc":"2.0","id":"\\ud800","method":"\\udfff x"}',
    '{"jsonrpc":"2.0","id":8,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1","maxTokens":0}}',
]


# How each conversation ends: an exit code; a signal read through a launcher; no start at all.
CONVERSATION_ENDS: Final[list[dict[str, Any]]] = [
    {"exitCode": 1, "signal": None},
    {
        "exitCode": None,
        "signal": "SIGKILL",
        "pid": 4242,
        "launcher": {"pid": 4241, "command": "npm exec x", "exitCode": 137, "signal": None},
    },
    {"exitCode": None, "signal": None, "spawnError": "spawn x ENOENT"},
]


def conversation_scripts() -> list[Script]:
    """Every pairing rule broken at least once: an id of the wrong type, a duplicate, a response
    nobody waits for, unanswered requests, the limit of pending requests; a line split in two
    directions' chunks interleaved."""
    sent = conversation_steps(CONVERSATION)
    sent[2] = ("serverToClient", sent[2][1])
    scripts: list[Script] = []
    for way in range(3):
        steps: list[Step] = []
        rng = random.Random(way)
        for direction, data in sent:
            cut = rng.randrange(1, len(data)) if way else len(data)
            steps += [push(direction, data[:cut])]
            if cut < len(data):
                steps += [push(direction, data[cut:])]
        steps.append({"finish": CONVERSATION_ENDS[way]})
        options = {"maxPendingRequests": 2} if way == 2 else {}
        scripts.append({"name": f"conversation {way}", "options": options, "steps": steps})
    return scripts


def run_python(script: Script) -> list[str]:
    records: list[str] = []
    options = script["options"]
    recorder = TraceRecorder(
        write=records.append,
        recorder="crosscheck",
        now=lambda: 0.0,
        **({"max_frame_bytes": options["maxFrameBytes"]} if "maxFrameBytes" in options else {}),
        **({"head_bytes": options["headBytes"]} if "headBytes" in options else {}),
        **(
            {"max_pending_requests": options["maxPendingRequests"]}
            if "maxPendingRequests" in options
            else {}
        ),
    )
    for step in script["steps"]:
        if "push" in step:
            recorder.push(step["push"], base64.b64decode(step["data"]))
        elif "end" in step:
            recorder.end_of_stream(step["end"])
        else:
            finish = step["finish"]
            recorder.finish(
                exit_code=finish["exitCode"],
                signal=finish["signal"],
                pid=finish.get("pid"),
                launcher=finish.get("launcher"),
                spawn_error=finish.get("spawnError"),
            )
    return records


def run_typescript(scripts: list[Script]) -> list[list[str]]:
    """All scripts in one tsx run (its start-up is the slow part)."""
    runner = Path(__file__).parent / "crosscheck/ts_trace.ts"
    payload = json.dumps(scripts).encode("utf-8")
    done = subprocess.run(
        [str(tsx_path()), str(runner)],
        input=payload,
        capture_output=True,
        check=False,
        timeout=budget(300),
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    results: list[list[str]] = json.loads(done.stdout)
    return results


def comparable(record: str) -> Any:
    """A record with what may differ between the languages blanked: the wall clock, and the JSON
    parser's own words after `the line is not JSON:` (as diagnostics' `detail`)."""
    value = json.loads(record)
    if value["type"] == "header":
        value["startedAt"] = 0
    for finding in value.get("findings", []) if value["type"] == "frame" else []:
        if finding["reason"] == "invalid-json":
            finding["message"] = finding["message"].split(":")[0]
    return value


def test_both_recorders_write_the_same_records() -> None:
    scripts = framing_scripts() + message_scripts() + conversation_scripts()
    assert len(scripts) > 300
    typescript = run_typescript(scripts)
    findings = 0
    for script, ts_records in zip(scripts, typescript, strict=True):
        py_records = run_python(script)
        assert [comparable(r) for r in py_records] == [comparable(r) for r in ts_records], script[
            "name"
        ]
        # Beyond the parser's words and the clock, the records are the same bytes.
        same = [r for r in ts_records if '"invalid-json"' not in r and '"header"' not in r]
        assert [r for r in py_records if '"invalid-json"' not in r and '"header"' not in r] == same
        findings += sum(r.count('"reason":') for r in py_records)
    assert findings > 500
