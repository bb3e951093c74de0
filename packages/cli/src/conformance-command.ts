// `dsh-sdk conformance runtime|client …`: the protocol's conformance kit (docs/conformance.md).
import { UsageError } from './cli-args.js';
import { runConformanceClient } from './conformance/client-command.js';
import { killAllGroups } from './conformance/process-group.js';
import { runConformanceRuntime } from './conformance/runtime-command.js';

export const CONFORMANCE_HELP = `Usage: dsh-sdk conformance runtime [options] -- <runtime command> [args...]
       dsh-sdk conformance client [options] -- <client driver command> [args...]

Judges a runtime, or a client through its driver, against the protocol's requirements
(docs/conformance.md). Exit status: 0 conformant, 1 not, 2 a usage error or a peer that
cannot start. dsh-sdk conformance runtime --help and … client --help list the options.`;

/** Ctrl-C or a termination stops every process the kit started before the kit goes. */
function stopOnSignals(): void {
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)
    process.once(signal, () => {
      killAllGroups();
      process.stderr.write(
        `dsh-sdk conformance: stopped by ${signal}; every process it started was killed\n`,
      );
      process.exit(code);
    });
}

export async function runConformance(args: readonly string[]): Promise<number> {
  const [mode, ...rest] = args;
  if (mode === undefined || mode === '--help' || mode === '-h') {
    process.stdout.write(`${CONFORMANCE_HELP}\n`);
    return mode === undefined ? 2 : 0;
  }
  stopOnSignals();
  if (mode === 'runtime') return runConformanceRuntime(rest);
  if (mode === 'client') return runConformanceClient(rest);
  throw new UsageError(`unknown mode ${JSON.stringify(mode)}: use runtime or client`);
}
