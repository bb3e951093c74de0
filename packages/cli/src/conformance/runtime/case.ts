// A runtime case: one scenario against fresh runtimes, and the requirements it judges.
import type { RuntimeCaseContext } from './case-context.js';

export interface RuntimeCase {
  /** Stable, dotted: `<area>.<what>` (`init.second-initialize`, `vector.exchange.<name>`). */
  readonly id: string;
  readonly title: string;
  /** The requirements it judges (the monitor's ones are judged in every case besides). */
  readonly requirements: readonly string[];
  /** Runtimes it applies to: `v1` (version 1 only) or `v2` (version 2 or later); all when absent. */
  readonly versions?: 'v1' | 'v2';
  /** How many liveness bounds the whole case may take (default 4). */
  readonly scale?: number;
  run(ctx: RuntimeCaseContext): Promise<void>;
}
