"""The generated validators: every IDL example passes, crafted payloads fail at the expected
pointers, and the TypeScript validators report the same violations for the same inputs."""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk._gen import validators as v
from dsh_sdk._gen.constants import MAX_NESTING_DEPTH
from dsh_sdk._gen.methods import METHODS
from dsh_sdk._gen.models import Violation
from tsx_support import REPO, tsx_path

SCHEMA = json.loads((REPO / "python/src/dsh_sdk/_gen/protocol.schema.json").read_text("utf-8"))
DEFINITIONS: dict[str, Any] = SCHEMA["definitions"]

INIT: dict[str, Any] = {"cwd": "/w", "provider": "echo", "model": "echo-1"}
IMAGE: dict[str, Any] = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
DURABLE_IMAGE: dict[str, Any] = {
    "type": "image",
    "attachment": {"attachmentId": "sha256-9f86d081", "mediaType": "image/png"},
}
FINISHED: dict[str, Any] = DEFINITIONS["SubagentFinishedNotification"]["examples"][0]
EVENT: dict[str, Any] = DEFINITIONS["SessionEventNotification"]["examples"][0]


def prompt(*blocks: object) -> dict[str, Any]:
    return {"sessionId": "s-1", "contentBlocks": list(blocks)}


def event(**fields: object) -> dict[str, Any]:
    return {"sessionId": "s-1", "event": {**EVENT["event"], **fields}}


def pointers(violations: list[Violation]) -> list[str]:
    return sorted({violation.pointer for violation in violations})


def validator(camel_name: str) -> Callable[[object], list[Violation]]:
    snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in camel_name)
    check: Callable[[object], list[Violation]] = getattr(v, snake)
    return check


# Every public validator and the definition it checks (None: a method without params).
CHECKED: dict[str, str | None] = {}
for method in METHODS:
    CHECKED[
        f"validate{method.params_type or method.name[0].upper() + method.name[1:] + 'Params'}"
    ] = method.params_type
    if method.result_type:
        CHECKED[f"validate{method.result_type}"] = method.result_type


@pytest.mark.parametrize("name", [n for n, t in CHECKED.items() if t is not None])
def test_every_example_of_a_checked_type_is_valid(name: str) -> None:
    type_name = CHECKED[name]
    assert type_name is not None
    examples = DEFINITIONS[type_name]["examples"]
    assert examples
    for example in examples:
        assert validator(name)(example) == []


def wrapped_examples() -> list[tuple[str, object]]:
    """Every example of every definition, placed where a public validator checks it."""
    cases: list[tuple[str, object]] = []
    for name, type_name in CHECKED.items():
        if type_name is not None:
            cases += [(name, example) for example in DEFINITIONS[type_name]["examples"]]
    for name, schema in DEFINITIONS.items():
        for example in schema.get("examples", []):
            if name.endswith("Event"):
                cases.append(
                    ("validateSessionEventNotification", {"sessionId": "s", "event": example})
                )
            if name.endswith("Block"):
                cases.append(("validateSessionPromptParams", prompt(example)))
            if name.endswith("Block") and not name.startswith("Sdk"):
                cases.append(
                    (
                        "validateSubagentFinishedNotification",
                        {**FINISHED, "lastAssistantMessage": [example]},
                    )
                )
    for method in METHODS:
        examples = DEFINITIONS[method.params_type]["examples"] if method.params_type else [None]
        for params in examples:
            frame = {"jsonrpc": "2.0", "method": method.wire_name, "params": params}
            cases.append(
                (
                    "validateProtocolFrame",
                    frame if method.kind == "notification" else {**frame, "id": 7},
                )
            )
    return cases


def test_every_example_is_valid_wherever_its_type_is_used() -> None:
    for check, value in wrapped_examples():
        assert validator(check)(value) == [], (check, value)


EXPECTED: list[tuple[str, str, object, list[str]]] = [
    ("maxTokens 0", "validateInitializeParams", {**INIT, "maxTokens": 0}, ["/maxTokens"]),
    ("maxTokens -1", "validateInitializeParams", {**INIT, "maxTokens": -1}, ["/maxTokens"]),
    ("maxTokens 1.5", "validateInitializeParams", {**INIT, "maxTokens": 1.5}, ["/maxTokens"]),
    ("maxTokens 2^53", "validateInitializeParams", {**INIT, "maxTokens": 2**53}, ["/maxTokens"]),
    ("maxTokens null", "validateInitializeParams", {**INIT, "maxTokens": None}, ["/maxTokens"]),
    ("maxTokens true", "validateInitializeParams", {**INIT, "maxTokens": True}, ["/maxTokens"]),
    ("maxTokens a string", "validateInitializeParams", {**INIT, "maxTokens": "5"}, ["/maxTokens"]),
    (
        "reasoningEffort empty",
        "validateInitializeParams",
        {**INIT, "reasoningEffort": ""},
        ["/reasoningEffort"],
    ),
    ("cwd missing", "validateInitializeParams", {"provider": "echo", "model": "m"}, ["/cwd"]),
    ("provider 42", "validateInitializeParams", {**INIT, "provider": 42}, ["/provider"]),
    ("everything missing", "validateInitializeParams", {}, ["/cwd", "/model", "/provider"]),
    ("params an array", "validateInitializeParams", [], [""]),
    (
        "sessionId missing",
        "validateSessionPromptParams",
        {"contentBlocks": [IMAGE]},
        ["/sessionId"],
    ),
    (
        "sessionId empty",
        "validateSessionPromptParams",
        {**prompt(IMAGE), "sessionId": ""},
        ["/sessionId"],
    ),
    (
        "contentBlocks an object",
        "validateSessionPromptParams",
        {**prompt(), "contentBlocks": {}},
        ["/contentBlocks"],
    ),
    ("contentBlocks empty", "validateSessionPromptParams", prompt(), ["/contentBlocks"]),
    (
        "inline image without mimeType",
        "validateSessionPromptParams",
        prompt({"type": "image", "data": "iVBORw0KGgo="}),
        ["/contentBlocks/0/mimeType"],
    ),
    (
        "inline image with data and attachment",
        "validateSessionPromptParams",
        prompt({**IMAGE, "attachment": DURABLE_IMAGE["attachment"]}),
        ["/contentBlocks/0/attachment"],
    ),
    (
        "base64 without padding",
        "validateSessionPromptParams",
        prompt({**IMAGE, "data": "aGk"}),
        ["/contentBlocks/0/data"],
    ),
    (
        "base64 with stray bits",
        "validateSessionPromptParams",
        prompt({**IMAGE, "data": "QR=="}),
        ["/contentBlocks/0/data"],
    ),
    (
        "base64url",
        "validateSessionPromptParams",
        prompt({**IMAGE, "data": "ab-_"}),
        ["/contentBlocks/0/data"],
    ),
    (
        "base64 with a newline",
        "validateSessionPromptParams",
        prompt({**IMAGE, "data": "aGk=\n"}),
        ["/contentBlocks/0/data"],
    ),
    (
        "base64 not ASCII",
        "validateSessionPromptParams",
        prompt({**IMAGE, "data": "aGk\u00e9"}),
        ["/contentBlocks/0/data"],
    ),
    (
        "mimeType not a raster",
        "validateSessionPromptParams",
        prompt({**IMAGE, "mimeType": "image/svg+xml"}),
        ["/contentBlocks/0/mimeType"],
    ),
    (
        "second block bad",
        "validateSessionPromptParams",
        prompt(IMAGE, {"type": "text"}),
        ["/contentBlocks/1/text"],
    ),
    (
        "block without type",
        "validateSessionPromptParams",
        prompt({"text": "hi"}),
        ["/contentBlocks/0/type"],
    ),
    (
        "block type a number",
        "validateSessionPromptParams",
        prompt({"type": 3}),
        ["/contentBlocks/0/type"],
    ),
    ("block a string", "validateSessionPromptParams", prompt("hi"), ["/contentBlocks/0"]),
    (
        "durable image with data",
        "validateSubagentFinishedNotification",
        {**FINISHED, "lastAssistantMessage": [{**DURABLE_IMAGE, "data": "aGk="}]},
        ["/lastAssistantMessage/0/data"],
    ),
    (
        "attachment without id",
        "validateSessionPromptParams",
        prompt({"type": "image", "attachment": {"mediaType": "image/png"}}),
        ["/contentBlocks/0/attachment/attachmentId"],
    ),
    (
        "status paused",
        "validateSessionStatusNotification",
        {"sessionId": "s", "status": "paused"},
        ["/status"],
    ),
    ("status missing", "validateSessionStatusNotification", {"sessionId": "s"}, ["/status"]),
    (
        "run status unknown",
        "validateSubagentFinishedNotification",
        {**FINISHED, "status": "done"},
        ["/status"],
    ),
    (
        "stopReason a number",
        "validateSubagentFinishedNotification",
        {**FINISHED, "stopReason": 1},
        ["/stopReason"],
    ),
    ("event seq negative", "validateSessionEventNotification", event(seq=-1), ["/event/seq"]),
    ("event seq 1.5", "validateSessionEventNotification", event(seq=1.5), ["/event/seq"]),
    (
        "event data missing turn",
        "validateSessionEventNotification",
        event(data={}),
        ["/event/data/turn"],
    ),
    (
        "event without type",
        "validateSessionEventNotification",
        {"sessionId": "s", "event": {"seq": 1, "time": 1, "data": {}}},
        ["/event/type"],
    ),
    (
        "unknown event without data",
        "validateSessionEventNotification",
        event(type="x/y", data=None),
        ["/event/data"],
    ),
    (
        "inbox target unknown",
        "validateSessionEventNotification",
        event(type="agent/inbox/spliced", data={"target": "later", "start": 0, "inserted": []}),
        ["/event/data/target"],
    ),
    (
        "user message role",
        "validateSessionEventNotification",
        event(
            type="user/message",
            data={"id": "m", "role": "assistant", "content": [], "source": {"kind": "user"}},
        ),
        ["/event/data/role"],
    ),
    (
        "tool result content not an array",
        "validateSessionEventNotification",
        event(type="tool/result", data={"toolCallId": "c", "content": "x", "isError": False}),
        ["/event/data/content"],
    ),
    (
        "nested block error",
        "validateSessionEventNotification",
        event(
            type="assistant/chunk",
            data={
                "turn": 0,
                "step": 0,
                "delta": {
                    "type": "tool-result",
                    "toolCallId": "c",
                    "content": [{"type": "reasoning"}],
                },
            },
        ),
        ["/event/data/delta/content/0/text"],
    ),
    ("messageId empty", "validateSessionPromptResult", {"messageId": ""}, ["/messageId"]),
    (
        "serverInfo name wrong",
        "validateInitializeResult",
        {"serverInfo": {"name": "other", "version": "1"}},
        ["/serverInfo/name"],
    ),
    ("shutdown params a string", "validateShutdownParams", "x", [""]),
    ("shutdown result null", "validateShutdownResult", None, [""]),
    (
        "frame without method",
        "validateProtocolFrame",
        {"jsonrpc": "2.0", "id": 1},
        ["", "/error", "/method", "/params", "/result"],
    ),
]


@pytest.mark.parametrize(
    ("name", "check", "value", "expected"), EXPECTED, ids=[c[0] for c in EXPECTED]
)
def test_a_crafted_payload_fails_at_the_expected_pointers(
    name: str, check: str, value: object, expected: list[str]
) -> None:
    assert pointers(validator(check)(value)) == expected


VALID: list[tuple[str, str, object]] = [
    ("maxTokens 1.0 is an integer", "validateInitializeParams", {**INIT, "maxTokens": 1.0}),
    ("maxTokens 2^53-1", "validateInitializeParams", {**INIT, "maxTokens": 2**53 - 1}),
    ("unknown params are ignored", "validateInitializeParams", {**INIT, "future": {"x": [1]}}),
    (
        "unknown event type with unknown data fields",
        "validateSessionEventNotification",
        event(type="plugin/memory/saved", data={"key": "k", "bytes": 12}, extra=True),
    ),
    ("unknown block type", "validateSessionPromptParams", prompt({"type": "audio", "seconds": 3})),
    ("empty base64", "validateSessionPromptParams", prompt({**IMAGE, "data": ""})),
    ("durable image in a prompt", "validateSessionPromptParams", prompt(DURABLE_IMAGE)),
    (
        "open stop reason",
        "validateSubagentFinishedNotification",
        {**FINISHED, "stopReason": "budget"},
    ),
    (
        "empty lastAssistantMessage",
        "validateSubagentFinishedNotification",
        {**FINISHED, "lastAssistantMessage": []},
    ),
    ("shutdown params null", "validateShutdownParams", None),
    ("shutdown params {}", "validateShutdownParams", {}),
]


@pytest.mark.parametrize(("name", "check", "value"), VALID, ids=[c[0] for c in VALID])
def test_a_crafted_valid_payload_passes(name: str, check: str, value: object) -> None:
    assert validator(check)(value) == []


def test_violations_carry_ajv_messages_in_ajv_order_without_duplicates() -> None:
    found = v.validate_initialize_params({"provider": 1, "model": "m", "maxTokens": 0.5})
    assert [(x.pointer, x.message) for x in found] == [
        ("/cwd", "must have required property 'cwd'"),
        ("/provider", "must be string"),
        ("/maxTokens", "must be integer"),
        ("/maxTokens", "must be >= 1"),
    ]


def test_the_method_tables_name_a_validator_for_every_method() -> None:
    assert list(v.PARAMS_VALIDATORS) == [m.wire_name for m in METHODS]
    assert list(v.RESULT_VALIDATORS) == [m.wire_name for m in METHODS if m.result_type]


# ---- cross-check with the TypeScript validators -------------------------------------------


def mutations(count: int) -> list[tuple[str, object]]:
    """Deterministic damage to valid examples: removed, retyped, emptied and added members."""
    rng = random.Random(20261130)
    bad_values: list[object] = [None, True, 0, -1, 1.5, 2**53, "", "x", [], {}, [1], {"type": 5}]
    seeds = wrapped_examples()
    out: list[tuple[str, object]] = []
    while len(out) < count:
        name, example = rng.choice(seeds)
        value = copy.deepcopy(example)
        paths = list(_paths(value))
        path = rng.choice(paths)
        _damage(value, path, rng, bad_values)
        out.append((name, value))
    return out


def _paths(value: object, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


def _damage(value: Any, path: tuple[str | int, ...], rng: random.Random, bad: list[object]) -> None:
    if not path:
        if isinstance(value, dict):
            value["unknownMember"] = rng.choice(bad)
        return
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    action = rng.randrange(3)
    if action == 0 and isinstance(parent, dict):
        del parent[last]
    else:
        parent[last] = copy.deepcopy(rng.choice(bad))


UNSAFE_NUMBERS: list[object] = [
    2**53,
    2**53 + 1,
    -(2**53) - 1,
    2**64 + 1,
    10**20,
    1e20,
    float("inf"),
    float("-inf"),
]
SAFE_NUMBERS: list[object] = [0, -1, 2**53 - 1, -(2**53) + 1, 1.5, 1e-7, 4.5e15]


def open_value(rng: random.Random, depth: int) -> object:
    """A value nested `depth` deep, a number (safe or not) at the bottom, beside other members."""
    value: object = rng.choice(UNSAFE_NUMBERS + SAFE_NUMBERS + ["x", None, True])
    for level in range(depth):
        if rng.random() < 0.5:
            sibling = rng.choice(SAFE_NUMBERS + UNSAFE_NUMBERS)
            value = [value, sibling] if level % 3 == 0 else [value]
        else:
            # JavaScript enumerates "10" and "2" before "b", which comes first here: the order of
            # the violations follows JavaScript's.
            value = {"b": rng.choice([1, 2**60]), rng.choice(["k", "10", "2", "a/b", "~"]): value}
    return value


def number_mutations(count: int) -> list[tuple[str, object]]:
    """Valid examples with a number outside or inside the range, or open content nested up to the
    nesting limit holding such numbers, put where a value was or as a member no schema names."""
    rng = random.Random(20261201)
    seeds = wrapped_examples()
    out: list[tuple[str, object]] = []
    while len(out) < count:
        name, example = rng.choice(seeds)
        value = copy.deepcopy(example)
        objects = [path for path in _paths(value) if isinstance(_at(value, path), dict)]
        depth = rng.choice([0, 0, 1, 3, 10, 40, MAX_NESTING_DEPTH - 8])
        if objects and rng.random() < 0.6:
            target = _at(value, rng.choice(objects))
            assert isinstance(target, dict)
            target[rng.choice(["extra", "7", "0", "x~y"])] = open_value(rng, depth)
        else:
            path = rng.choice(list(_paths(value))[1:] or [()])
            if path:
                _at(value, path[:-1])[path[-1]] = open_value(rng, depth)
        out.append((name, value))
    return out


def _at(value: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def to_wire_text(value: object) -> str:
    """JSON text as the wire writes it, infinities as the literal `1e400` (which parses to one)."""
    text = json.dumps(value, separators=(",", ":"), allow_nan=True)
    return re.sub(r"(?<=[:\[,])(-?)Infinity(?=[,\]}])", r"\g<1>1e400", text)


def run_typescript(cases: list[tuple[str, object]]) -> list[list[tuple[str, str]]]:
    tsx = tsx_path()
    payload = to_wire_text([{"validator": name, "value": value} for name, value in cases])
    result = subprocess.run(
        [str(tsx), str(Path(__file__).parent / "crosscheck/ts_violations.ts")],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
        timeout=120,
    )
    reports: list[list[dict[str, str]]] = json.loads(result.stdout)
    return [[(x["pointer"], x["message"]) for x in report] for report in reports]


def test_python_and_typescript_validators_report_the_same_violations_in_order() -> None:
    cases = [(check, value) for _, check, value, _ in EXPECTED]
    cases += [(check, value) for _, check, value in VALID]
    cases += mutations(600)
    cases += number_mutations(600)
    expected = run_typescript(cases)
    mismatches = []
    for (check, value), ts in zip(cases, expected, strict=True):
        py = [(x.pointer, x.message) for x in validator(check)(value)]
        if py != ts:
            mismatches.append((check, value, py, ts))
    assert mismatches == []
