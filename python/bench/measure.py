"""Timing helpers, as `bench/src/measure.mjs`: every competitor of a scenario runs once per round,
in a rotating order, so they share the machine's noise; we report medians, min-max, and ratios to
the floor."""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

Competitor = Callable[[], Awaitable[int]]
"""Runs once and returns how many units (frames) it handled."""


@dataclass(frozen=True, slots=True)
class Stats:
    """Medians and ranges over the rounds of one competitor."""

    rate: float
    rate_min: float
    rate_max: float
    ms: float
    ms_min: float
    ms_max: float
    rates: tuple[float, ...] = ()
    """The rate of each round, in round order (rounds pair up across competitors)."""


async def compare(
    competitors: dict[str, Competitor], *, rounds: int = 7, warmup: int = 2
) -> dict[str, Stats]:
    names = list(competitors)
    samples: dict[str, list[tuple[float, int]]] = {name: [] for name in names}
    for round_ in range(-warmup, rounds):
        shift = (round_ + warmup) % len(names)
        for name in names[shift:] + names[:shift]:
            gc.collect()
            start = time.perf_counter()
            units = await competitors[name]()
            seconds = time.perf_counter() - start
            if round_ >= 0:
                samples[name].append((seconds, units))
    return {name: _summarize(runs) for name, runs in samples.items()}


def _summarize(runs: list[tuple[float, int]]) -> Stats:
    rates = [units / seconds for seconds, units in runs]
    times = [seconds * 1e3 for seconds, _ in runs]
    return Stats(
        rate=statistics.median(rates),
        rate_min=min(rates),
        rate_max=max(rates),
        ms=statistics.median(times),
        ms_min=min(times),
        ms_max=max(times),
        rates=tuple(rates),
    )


def load_line() -> str:
    """The machine's load averages (1, 5, 15 min) and core count, for the report."""
    try:
        with open("/proc/loadavg", encoding="ascii") as file:
            one, five, fifteen = file.read().split()[:3]
    except OSError:
        return "load unknown"
    return f"load {one} {five} {fifteen} on {os.cpu_count()} cores"


def fmt(n: float) -> str:
    if n >= 100:
        return f"{n:.0f}"
    return f"{n:.1f}" if n >= 10 else f"{n:.2f}"


def print_rates(title: str, stats: dict[str, Stats], floor: str, unit: str = "msg/s") -> None:
    """A throughput table (higher is better); the ratio is rate / floor rate."""
    base = stats[floor].rate
    print(f"\n{title}")
    print(f"  {'implementation':<56} {f'median {unit}':>14} {'min-max':>22} {'x floor':>8}")
    for name, s in stats.items():
        span = f"{fmt(s.rate_min)}-{fmt(s.rate_max)}"
        print(f"  {name:<56} {fmt(s.rate):>14} {span:>22} {s.rate / base:>8.2f}")


def print_times(title: str, stats: dict[str, Stats], floor: str) -> None:
    """A time table (lower is better); the ratio is time / floor time."""
    base = stats[floor].ms
    print(f"\n{title}")
    print(f"  {'implementation':<56} {'median ms':>14} {'min-max':>22} {'time/floor':>10}")
    for name, s in stats.items():
        span = f"{fmt(s.ms_min)}-{fmt(s.ms_max)}"
        print(f"  {name:<56} {fmt(s.ms):>14} {span:>22} {s.ms / base:>10.2f}")
