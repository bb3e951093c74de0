"""The protocol's limits as properties, checked in both languages on the same lines.

Lines carry a value at every place a payload accepts open content (unknown members, `usage`, open
objects, unknown variants, the frame itself) or at a typed number field, nested from the least
depth that place allows up to just past `MAX_NESTING_DEPTH`, with numbers inside and outside
±`MAX_SAFE_INTEGER` written as they are on the wire (`9007199254740993`, `1e400`). Each line goes
through the Python transport with the generated server and client ends, and through the TypeScript
ones (`crosscheck/ts_transport.ts`, run with tsx). Both must give the same verdict, the same
violations in the same order and the same answers; every request is answered; a value that is
valid reaches its handler unchanged and survives decode and encode.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsh_sdk import codec
from dsh_sdk._gen.constants import MAX_NESTING_DEPTH, MAX_SAFE_INTEGER, SERVER_NAME
from dsh_sdk._gen.models import (
    InitializeParams,
    InitializeResult,
    SessionCloseResult,
    SessionInterruptResult,
    SessionPromptParams,
    SessionPromptResult,
    ShutdownResult,
)
from dsh_sdk._gen.peers import HarnessSdkClientPeer, serve_harness_sdk
from dsh_sdk.inbound_handlers import RequestContext
from time_budget import budget
from transport_support import MemoryPeer, close_live_transports
from tsx_support import REPO, tsx_path

LIMIT = MAX_NESTING_DEPTH
TOO_DEEP_ANSWER = f"Invalid request: the frame is nested deeper than {LIMIT} levels"

# Number literals as they stand on the wire, and whether a double holds them within the range.
NUMBERS: list[tuple[str, bool]] = [
    ("0", True),
    ("-7", True),
    ("9007199254740991", True),
    ("-9007199254740991", True),
    ("9007199254740992", False),
    ("9007199254740993", False),
    ("-9007199254740993", False),
    ("18446744073709551616", False),
    ("100000000000000000000", False),
    ("1e20", False),
    ("1E400", False),
    ("-1e400", False),
    ("1.5", True),
    ("0.1", True),
    ("1e-7", True),
    ("1e-400", True),
    ("4.5e15", True),
    ("9007199254740991.4", True),
    ("9007199254740991.6", False),
]
OTHER_LEAVES = ['"text"', '"[{\\"]"', "true", "null"]


@dataclass(frozen=True)
class Place:
    """Where a case puts its value: a frame template with `{v}` (the value) and `{n}` (the line
    number, which the params carry so that a delivery tells its line), how many containers enclose
    the value, and its JSON pointer into params (None for a member of the frame itself)."""

    name: str
    template: str
    enclosing: int
    pointer: str | None
    is_request: bool
    typed: bool = False
    shape: str = "open"
    """`open`: objects and arrays around the leaf; `tool-result`: tool-result blocks nested in each
    other's content (the IDL's own recursion, which the validators and `codec` walk)."""


EVENT = '{{"jsonrpc":"2.0","method":"session.event","params":{{"sessionId":"s{n}","event":'
PROMPT = '{{"jsonrpc":"2.0","id":{n},"method":"session/prompt","params":{{"sessionId":"s{n}",'
INIT = (
    '{{"jsonrpc":"2.0","id":{n},"method":"initialize",'
    '"params":{{"cwd":"/{n}","provider":"echo","model":"echo-1",'
)
PLACES = [
    Place("initialize, unknown member", INIT + '"x":{v}}}}}', 2, "/x", True),
    Place(
        "session/prompt, unknown block",
        PROMPT + '"contentBlocks":[{{"type":"audio","x":{v}}}]}}}}',
        4,
        "/contentBlocks/0/x",
        True,
    ),
    Place(
        "session/prompt, unknown member of a text block",
        PROMPT + '"contentBlocks":[{{"type":"text","text":"t","x":{v}}}]}}}}',
        4,
        "/contentBlocks/0/x",
        True,
    ),
    Place(
        "shutdown, unknown member",
        '{{"jsonrpc":"2.0","id":{n},"method":"shutdown","params":{{"x":{v}}}}}',
        2,
        "/x",
        True,
    ),
    Place(
        "session.event, unknown event's data",
        EVENT + '{{"type":"plugin/x","seq":1,"time":1,"data":{{"x":{v}}}}}}}}}',
        4,
        "/event/data/x",
        False,
    ),
    Place(
        "session.event, usage",
        EVENT + '{{"type":"assistant/message","seq":1,"time":1,"data":{{"message":'
        '{{"id":"m","role":"assistant","content":[]}},"usage":{{"x":{v}}}}}}}}}}}',
        5,
        "/event/data/usage/x",
        False,
    ),
    Place(
        "session.event, open turn/end reason",
        EVENT + '{{"type":"turn/end","seq":1,"time":1,"data":'
        '{{"turn":0,"reason":{{"kind":"completed","x":{v}}}}}}}}}}}',
        5,
        "/event/data/reason/x",
        False,
    ),
    Place(
        "session.event, unknown member of a known event",
        EVENT + '{{"type":"turn/start","seq":1,"time":1,"data":{{"turn":0}},"x":{v}}}}}}}',
        3,
        "/event/x",
        False,
    ),
    Place(
        "subagent.finished, unknown block",
        '{{"jsonrpc":"2.0","method":"subagent.finished","params":{{"provider":"p","agentId":"a",'
        '"parentSessionId":"s{n}","childSessionId":"c","status":"ok","stopReason":"completed",'
        '"lastAssistantMessage":[{{"type":"future","x":{v}}}]}}}}',
        4,
        "/lastAssistantMessage/0/x",
        False,
    ),
    Place(
        "a member of the frame itself",
        '{{"jsonrpc":"2.0","method":"session.status","params":{{"sessionId":"s{n}",'
        '"status":"idle"}},"x":{v}}}',
        1,
        None,
        False,
    ),
    Place(
        "session.event, seq",
        EVENT + '{{"type":"turn/start","seq":{v},"time":1,"data":{{"turn":0}}}}}}}}',
        3,
        "/event/seq",
        False,
        typed=True,
    ),
    Place(
        "session.event, time",
        EVENT + '{{"type":"turn/start","seq":1,"time":{v},"data":{{"turn":0}}}}}}}}',
        3,
        "/event/time",
        False,
        typed=True,
    ),
    Place("initialize, maxTokens", INIT + '"maxTokens":{v}}}}}', 2, "/maxTokens", True, True),
    Place(
        "session.event, tool-result content in tool-result content",
        EVENT + '{{"type":"assistant/chunk","seq":1,"time":1,'
        '"data":{{"turn":0,"step":0,"delta":{v}}}}}}}}}',
        4,
        "/event/data/delta",
        False,
        shape="tool-result",
    ),
]


@dataclass(frozen=True)
class Case:
    place: Place
    containers: int
    leaf: str

    @property
    def depth(self) -> int:
        return self.place.enclosing + self.containers

    def value_text(self) -> str:
        if self.place.shape == "tool-result":
            wraps, extra = divmod(self.containers - 1, 2)
            text = f'{{"type":"text","text":"t","n":{f"[{self.leaf}]" if extra else self.leaf}}}'
            for _ in range(wraps):
                text = f'{{"type":"tool-result","toolCallId":"c","content":[{text}]}}'
            return text
        text = self.leaf
        for level in range(self.containers):
            text = f'[{text},"s"]' if level % 2 else f'{{"k":{text},"n":1}}'
        return text

    def leaf_pointer(self) -> str:
        """The pointer of the leaf below the value: /k for an object, /0 for an array."""
        if self.place.shape == "tool-result":
            wraps, extra = divmod(self.containers - 1, 2)
            return "/content/0" * wraps + "/n" + "/0" * extra
        return "".join("/0" if level % 2 else "/k" for level in reversed(range(self.containers)))

    def line(self, n: int) -> str:
        return self.place.template.format(v=self.value_text(), n=n)


def number_is_safe(leaf: str) -> bool:
    return dict(NUMBERS).get(leaf, True)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    place = draw(st.sampled_from(PLACES))
    if place.typed:
        return Case(place, 0, draw(st.sampled_from([n for n, _ in NUMBERS])))
    least = 1 if place.shape == "tool-result" else 0
    containers = draw(st.integers(least, LIMIT + 2 - place.enclosing))
    leaf = draw(st.sampled_from([n for n, _ in NUMBERS] + OTHER_LEAVES))
    return Case(place, containers, leaf)


def edge_cases() -> list[Case]:
    """Every place at the limit and one past it, and every number at every place."""
    found: list[Case] = []
    for place in PLACES:
        for leaf, _ in NUMBERS:
            found.append(Case(place, 1 if place.shape == "tool-result" else 0, leaf))
        if not place.typed:
            for depth in (LIMIT - 1, LIMIT, LIMIT + 1):
                found.append(Case(place, depth - place.enclosing, "9007199254740991"))
                found.append(Case(place, depth - place.enclosing, "9007199254740993"))
    return found


# ---- running the lines in each language ----------------------------------------------------


class Handlers:
    """The server end's handlers: they record the params they got (encoded back) and answer."""

    def __init__(self, received: list[dict[str, Any]]) -> None:
        self.received = received

    async def initialize(self, params: InitializeParams, context: RequestContext) -> Any:
        self.received.append(
            {"line": context.line, "method": "initialize", "params": codec.encode(params)}
        )
        return codec.decode(InitializeResult, {"serverInfo": {"name": SERVER_NAME, "version": "1"}})

    async def session_prompt(self, params: SessionPromptParams, context: RequestContext) -> Any:
        self.received.append(
            {"line": context.line, "method": "session/prompt", "params": codec.encode(params)}
        )
        return codec.decode(SessionPromptResult, {"messageId": "m-1"})

    async def session_interrupt(self, params: Any, context: RequestContext) -> Any:
        return codec.decode(SessionInterruptResult, {"found": False, "wasRunning": False})

    async def session_close(self, params: Any, context: RequestContext) -> Any:
        return codec.decode(SessionCloseResult, {"found": False})

    async def shutdown(self, context: RequestContext) -> Any:
        self.received.append({"line": context.line, "method": "shutdown", "params": None})
        return codec.decode(ShutdownResult, {})


async def run_python(lines: list[str]) -> dict[str, Any]:
    peer = MemoryPeer()
    received: list[dict[str, Any]] = []
    notified: list[dict[str, Any]] = []
    serve_harness_sdk(peer.transport, Handlers(received))
    client = HarnessSdkClientPeer(peer.transport)

    def recorder(method: str) -> Callable[[Any], None]:
        return lambda params: notified.append({"method": method, "params": codec.encode(params)})

    client.on_session_event(recorder("session.event"))
    client.on_session_status(recorder("session.status"))
    client.on_subagent_started(recorder("subagent.started"))
    client.on_subagent_finished(recorder("subagent.finished"))
    peer.transport.start()
    for line in lines:
        peer.send_raw(line.encode() + b"\n")
    seen, quiet = -1, 0
    while quiet < 3:
        quiet = quiet + 1 if len(peer.output.data) == seen else 0
        seen = len(peer.output.data)
        await asyncio.sleep(0.01)
    outcome = {
        "answers": peer.output.messages(),
        "received": received,
        "notified": notified,
        "diagnostics": [
            {
                "reason": d.reason,
                "line": d.line,
                "id": d.id,
                "method": d.method,
                "violations": (
                    [[v.pointer, v.message] for v in d.violations] if d.violations else None
                ),
            }
            for d in peer.diagnostics
        ],
    }
    await close_live_transports()
    return outcome


def run_typescript(lines: list[str]) -> dict[str, Any]:
    result = subprocess.run(
        [str(tsx_path()), str(Path(__file__).parent / "crosscheck/ts_transport.ts")],
        input=json.dumps({"lines": lines}),
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        timeout=budget(120),
    )
    outcome: dict[str, Any] = json.loads(result.stdout)
    return outcome


def by_id(answers: list[dict[str, Any]]) -> dict[Any, dict[str, Any]]:
    table = {answer["id"]: answer for answer in answers}
    assert len(table) == len(answers), "a request was answered twice"
    return table


# ---- the properties ------------------------------------------------------------------------


def check(cases_: list[Case]) -> None:
    lines = [case.line(n) for n, case in enumerate(cases_, start=1)]
    python = asyncio.run(run_python(lines))
    typescript = run_typescript(lines)

    # The same verdict, violations in the same order, the same answers, in both languages.
    assert python["diagnostics"] == typescript["diagnostics"]
    assert by_id(python["answers"]) == by_id(typescript["answers"])
    assert python["received"] == typescript["received"]
    assert python["notified"] == typescript["notified"]

    answers = by_id(python["answers"])
    reports = {d["line"]: d for d in python["diagnostics"]}
    delivered = {n: entry["params"] for n, entry in enumerate_deliveries(python)}
    for n, case in enumerate(cases_, start=1):
        wire = json.loads(lines[n - 1])
        if case.place.is_request:
            assert n in answers, f"line {n} ({case.place.name}) was not answered"
        if case.depth > LIMIT:
            assert reports[n]["reason"] == "nesting-too-deep", case
            if case.place.is_request:
                error = {"code": -32600, "message": TOO_DEEP_ANSWER}
                assert answers[n] == {"jsonrpc": "2.0", "id": n, "error": error}
            assert n not in delivered
            continue
        safe = number_is_safe(case.leaf)
        if not safe and case.place.pointer is not None:
            pointer = case.place.pointer + case.leaf_pointer()
            if case.place.is_request:
                assert answers[n]["error"]["code"] == -32602, case
                assert pointer in [v["pointer"] for v in answers[n]["error"]["data"]], case
            else:
                assert reports[n]["reason"] == "invalid-notification-params", case
                assert pointer in [p for p, _ in reports[n]["violations"]], case
            assert n not in delivered
            continue
        if case.place.typed:
            continue  # a safe number may break the field's own bounds (maxTokens 0): compared above
        assert n not in reports, (case, reports.get(n))
        if case.place.pointer is None:
            continue  # the frame's own members reach nobody
        # Delivered unchanged: what the handler got, decoded and encoded again, is the wire value.
        if wire["method"] == "shutdown":
            assert answers[n]["result"] == {}
        else:
            assert delivered[n] == wire["params"], case


def enumerate_deliveries(outcome: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """Every delivery with the line it came on, read from the params (`s<n>`, `/<n>`)."""
    found: list[tuple[int, dict[str, Any]]] = []
    for entry in outcome["received"] + outcome["notified"]:
        params = entry["params"]
        if params is None:
            continue
        tag = params.get("sessionId") or params.get("parentSessionId") or params.get("cwd")
        found.append((int(str(tag)[1:]), entry))
    return found


def test_every_place_at_the_limit_past_it_and_with_every_number() -> None:
    check(edge_cases())


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(cases(), min_size=20, max_size=40))
def test_any_value_at_any_depth_gets_the_same_verdict_in_both_languages(
    cases_: list[Case],
) -> None:
    check(cases_)


def test_the_numbers_the_properties_use_are_judged_as_a_double_reads_them() -> None:
    for literal, safe in NUMBERS:
        assert (abs(float(literal)) <= MAX_SAFE_INTEGER) is safe, literal
