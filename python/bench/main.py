"""`pnpm bench` (Python half): notification decode throughput and big-frame decode time of the
Python transport and generated peers, beside the floor measured in the same run.

Run: `python/.venv/bin/python python/bench/main.py [--quick]`.

Rows name what is measured:

- floor: `bytes.split(b"\\n")` + `json.loads` (or `orjson.loads`) per line, no RPC layer;
- transport, validation off: `JsonRpcLineTransport` delivering each parsed notification to a
  handler (framing, strict UTF-8, classification, dispatch);
- transport, validation on: the same, the handler checking the params with the generated
  validator the peers use;
- typed peer: `HarnessSdkClientPeer` subscriptions, which decode the params into the generated
  dataclasses, with validation off or on.

The targets, all against the json floor: the transport with validation off ≥ 0.7x on
small frames and ≥ 0.8x on medium ones with the json backend, ≥ 2x and ≥ 1.6x with orjson; typed
peers on medium frames ≥ 0.9x (validate=False) and ≥ 0.7x (validate=True) with json, both ≥ 1.2x
with orjson; a big frame decodes at ≥ 0.8x the floor's speed.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import platform
import statistics
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import acp_frames
import competitors as c
from frames import Frame, chunk, line_of, medium_frame, ndjson_chunks, prompt_frame, small_frame
from measure import Competitor, Stats, compare, load_line, print_rates, print_times

from dsh_sdk import jsonlib

QUICK = "--quick" in sys.argv
ROUNDS = 3 if QUICK else 7
WARMUP = 1 if QUICK else 2
FLOOR = "floor: split + json.loads"
BACKENDS = jsonlib.available_backends()[::-1]  # json first, then orjson when installed
DEFAULT_BACKEND = jsonlib.backend()


def sync(run: Callable[[], int]) -> Competitor:
    async def competitor() -> int:
        return run()

    return competitor


def floors(chunks: list[bytes], count: int) -> dict[str, Competitor]:
    found = {FLOOR: sync(partial(c.floor_decode, json.loads, chunks, count))}
    if "orjson" in BACKENDS:
        import orjson

        found["floor: split + orjson.loads"] = sync(
            partial(c.floor_decode, orjson.loads, chunks, count)
        )
    return found


LABELS: dict[c.Mode, str] = {
    "raw": "transport, validation off",
    "validated": "transport, validation on",
    "peer": "typed peer → dataclasses, validation off",
    "peer-validated": "typed peer → dataclasses, validation on",
}


class Verdicts:
    """The targets, checked as the tables are printed."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def check(
        self, what: str, ratio: float, want: float, note: str = "", rounds: Stats | None = None
    ) -> None:
        verdict = "met" if ratio >= want else "MISSED"
        if rounds is not None:
            note += f", rounds {rounds.rate_min:.2f}-{rounds.rate_max:.2f}"
        line = f"{what}: {ratio:.2f}x the json floor's speed{note} (target ≥ {want}) — {verdict}"
        self.lines.append(line)
        print(f"  -> {line}")


PEER_TARGETS: dict[str, dict[c.Mode, float]] = {
    "json": {"peer": 0.9, "peer-validated": 0.7},
    "orjson": {"peer": 1.2, "peer-validated": 1.2},
}
"""Typed peers on medium frames, against the json floor."""


def round_ratios(ours: Stats, floor: Stats) -> Stats:
    """The ratio of each round (rounds pair up), as a Stats whose rate_min/rate_max span them."""
    ratios = [a / b for a, b in zip(ours.rates, floor.rates, strict=True)]
    return Stats(statistics.median(ratios), min(ratios), max(ratios), 0, 0, 0)


def per_frame_ns(stats: Stats) -> float:
    return 1e9 / stats.rate


async def decode_scenario(
    title: str, make_frame: Callable[[int], Frame], count: int, method: str, verdicts: Verdicts
) -> None:
    chunks = ndjson_chunks(make_frame, count)
    size = sum(len(piece) for piece in chunks) / count
    competitors = floors(chunks, count)
    for backend in BACKENDS:
        for mode, label in LABELS.items():
            run = partial(c.notifications, chunks, count, method, mode=mode, backend=backend)
            competitors[f"{label} [{backend}]"] = run
    competitors[f"transport via asyncio.StreamReader, validation off [{DEFAULT_BACKEND}]"] = (
        partial(
            c.notifications,
            chunks,
            count,
            method,
            mode="raw",
            backend=DEFAULT_BACKEND,
            through_stream=True,
        )
    )
    stats = await compare(competitors, rounds=ROUNDS, warmup=WARMUP)
    jsonlib.set_backend(DEFAULT_BACKEND)
    print_rates(f"{title}: {count} frames, {size:.0f} B each, 64 KiB chunks", stats, FLOOR)
    for backend in BACKENDS:
        costs = {mode: per_frame_ns(stats[f"{LABELS[mode]} [{backend}]"]) for mode in LABELS}
        added = {mode: cost - costs["raw"] for mode, cost in costs.items()}
        print(
            f"  [{backend}] per frame: transport {costs['raw']:.0f} ns; validation adds "
            f"{added['validated']:.0f} ns, dataclass conversion {added['peer']:.0f} ns, "
            f"both {added['peer-validated']:.0f} ns"
        )
        small = "small" in title
        want = (2.0 if small else 1.6) if backend == "orjson" else (0.7 if small else 0.8)
        frames = title.split(" decode")[0]
        checked: list[tuple[c.Mode, float]] = [("raw", want)]
        if not small:
            checked += list(PEER_TARGETS[backend].items())
        for mode, least in checked:
            what = f"{frames} frames, {LABELS[mode]} [{backend}]"
            name = f"{LABELS[mode]} [{backend}]"
            ratio = stats[name].rate / stats[FLOOR].rate
            verdicts.check(what, ratio, least, rounds=round_ratios(stats[name], stats[FLOOR]))


async def big_frame_scenario(mib: int, verdicts: Verdicts) -> None:
    data = line_of(prompt_frame(round(mib * 1024 * 1024 * 3 / 4)))
    chunks = chunk(data)
    competitors = floors(chunks, 1)
    for backend in BACKENDS:
        for validate in (False, True):
            state = "on" if validate else "off"
            run = partial(c.big_request, chunks, validate=validate, backend=backend)
            competitors[f"server end, validation {state} [{backend}]"] = run
    stats = await compare(competitors, rounds=ROUNDS, warmup=WARMUP)
    jsonlib.set_backend(DEFAULT_BACKEND)
    title = f"one {len(data) / 2**20:.1f} MiB session/prompt frame in 64 KiB chunks"
    print_times(title, stats, FLOOR)
    for name, s in stats.items():
        if not name.startswith("server end"):
            continue
        own_floor = stats.get("floor: split + orjson.loads") if "[orjson]" in name else None
        note = "" if own_floor is None else f", {own_floor.ms / s.ms:.2f}x the orjson floor's"
        verdicts.check(f"{mib} MiB frame, {name}", stats[FLOOR].ms / s.ms, 0.8, note)


async def acp_scenario(count: int, verdicts: Verdicts) -> None:
    lines = acp_frames.acp_lines(count)
    ours = "dsh_sdk.acp generated validators"
    full = "the same, full check only (no fast path)"
    typed = "the same, then decoded to dataclasses"
    theirs = "official ACP SDK 0.12.1 (pydantic 2)"
    competitors = {
        FLOOR: sync(partial(acp_frames.decode_with, lines, None)),
        ours: sync(partial(acp_frames.decode_with, lines, acp_frames.ours)),
        full: sync(partial(acp_frames.decode_with, lines, acp_frames.ours_full_check)),
        typed: sync(partial(acp_frames.decode_with, lines, acp_frames.ours_to_dataclasses)),
        theirs: sync(partial(acp_frames.decode_with, lines, acp_frames.pydantic_sdk)),
    }
    stats = await compare(competitors, rounds=ROUNDS, warmup=WARMUP)
    print_rates(f"ACP frames decoded and validated: {count} (as bench/src/acp.mjs)", stats, FLOOR)
    ratio = stats[ours].rate / stats[theirs].rate
    verdict = "met" if ratio >= 1.0 else "MISSED"
    line = f"ACP frames, our validators: {ratio:.2f}x pydantic's speed (target ≥ 1.0) — {verdict}"
    verdicts.lines.append(line)
    print(f"  -> {line}")
    typed_ratio = stats[typed].rate / stats[theirs].rate
    typed_verdict = "met" if typed_ratio >= 1.0 else "MISSED"
    typed_line = (
        f"ACP frames to dataclasses: {typed_ratio:.2f}x pydantic's speed to models"
        f" (target ≥ 1.0) — {typed_verdict}"
    )
    verdicts.lines.append(typed_line)
    print(f"  -> {typed_line}")


async def main() -> None:
    mode = "quick" if QUICK else "full"
    versions = f"Python {platform.python_version()}, backends {', '.join(BACKENDS)}"
    print(f"dsh-sdk Python bench ({mode}): {versions}; medians of {ROUNDS} rounds")
    print("ratios are to the first row (the json floor); validation off = no schema check")
    print(f"{datetime.datetime.now().isoformat(timespec='seconds')}, before: {load_line()}")
    verdicts = Verdicts()
    small_count = 20_000 if QUICK else 100_000
    medium_count = 4_000 if QUICK else 20_000
    await decode_scenario(
        "small session.status decode", small_frame, small_count, "session.status", verdicts
    )
    await decode_scenario(
        "medium session.event decode", medium_frame, medium_count, "session.event", verdicts
    )
    await big_frame_scenario(8, verdicts)
    await big_frame_scenario(16, verdicts)
    await acp_scenario(10_000 if QUICK else 50_000, verdicts)
    missed = [line for line in verdicts.lines if line.endswith("MISSED")]
    print(f"\ntargets: {len(verdicts.lines) - len(missed)} of {len(verdicts.lines)} met")
    for line in missed:
        print(f"  missed: {line}")
    print(f"after: {load_line()}")


def run() -> Any:
    return asyncio.run(main())


if __name__ == "__main__":
    run()
