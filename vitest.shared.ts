// Every vitest config's time limits, in one place. Tests wait for events, not durations; the
// limits that remain are guards against a hang, sized for this project's 2-core machine under
// load (CI runs four jobs at once). DSH_SDK_TEST_TIME_SCALE multiplies them all, and the budgets
// tests take from test/helpers/time-budget.ts, for a slower machine: DSH_SDK_TEST_TIME_SCALE=3.
export const TIME_SCALE = Number(process.env['DSH_SDK_TEST_TIME_SCALE'] ?? '1') || 1;

/** `testTimeout` and `hookTimeout` of `testMs` and `hookMs`, scaled. */
export function scaledTimeouts(testMs: number, hookMs: number = testMs) {
  return {
    testTimeout: testMs * TIME_SCALE,
    hookTimeout: hookMs * TIME_SCALE,
    env: { DSH_SDK_TEST_TIME_SCALE: String(TIME_SCALE) },
  };
}
