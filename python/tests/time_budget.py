"""Time budgets of the tests, scaled by DSH_SDK_TEST_TIME_SCALE as the TypeScript tests' limits
are (vitest.shared.ts): guards against a hang, sized for a 2-core machine; the factor is 1 by
default and 3 under CI=true, where scripts/check.sh runs six jobs at once on two cores. Tests
wait for events, not for these."""

from __future__ import annotations

import os

_DEFAULT_SCALE = "3" if os.environ.get("CI") == "true" else "1"
TIME_SCALE = float(os.environ.get("DSH_SDK_TEST_TIME_SCALE") or _DEFAULT_SCALE) or 1.0


def budget(seconds: float) -> float:
    """`seconds`, scaled."""
    return seconds * TIME_SCALE
