// Every vitest config's time limits, in one place. Tests wait for events, not durations; the
// limits that remain are guards against a hang, sized for this project's 2-core machine.
// DSH_SDK_TEST_TIME_SCALE multiplies them all, and the budgets tests take from
// test/helpers/time-budget.ts: by default 1, and 3 under CI=true, where scripts/check.sh runs six
// jobs at once on two cores (and CI machines are shared); set it for a slower machine.
export const TIME_SCALE =
  Number(process.env['DSH_SDK_TEST_TIME_SCALE'] ?? (process.env['CI'] === 'true' ? '3' : '1')) || 1;

/** `testTimeout` and `hookTimeout` of `testMs` and `hookMs`, scaled. */
export function scaledTimeouts(testMs: number, hookMs: number = testMs) {
  return {
    testTimeout: testMs * TIME_SCALE,
    hookTimeout: hookMs * TIME_SCALE,
    env: { DSH_SDK_TEST_TIME_SCALE: String(TIME_SCALE) },
  };
}
