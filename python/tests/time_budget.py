"""Time budgets of the tests, scaled by DSH_SDK_TEST_TIME_SCALE (as the TypeScript tests'
limits are, in vitest.shared.ts): guards against a hang, sized for a loaded 2-core machine;
set DSH_SDK_TEST_TIME_SCALE=3 on a slower one. Tests wait for events, not for these."""

from __future__ import annotations

import os

TIME_SCALE = float(os.environ.get("DSH_SDK_TEST_TIME_SCALE") or "1") or 1.0


def budget(seconds: float) -> float:
    """`seconds`, scaled."""
    return seconds * TIME_SCALE
