// `dsh-sdk conformance client [options] -- <driver command> [args...]`.
export async function runConformanceClient(_args: readonly string[]): Promise<number> {
  return 2;
}
