/** A test's time budget in ms, scaled by DSH_SDK_TEST_TIME_SCALE (see vitest.shared.ts). */
export const budgetMs = (ms: number): number =>
  ms * (Number(process.env['DSH_SDK_TEST_TIME_SCALE'] ?? '1') || 1);
