// `dsh-sdk acp [route options] -- <runtime command>`: an ACP agent on this process's stdio, served
// by DeepSeek Harness runtimes (docs/acp.md).
import { createRequire } from 'node:module';
import { toViolations, validateInitializeParams } from '@dsh-sdk/protocol';
import type { InitializeParams } from '@dsh-sdk/protocol';
import { integerOption, parseVerbArgs, runtimeCommand, UsageError } from '../cli-args.js';
import { runBridge } from './bridge.js';
import type { RuntimeRoute } from './runtime-pool.js';

export const ACP_HELP = `Usage: dsh-sdk acp [route options] -- <runtime command> [args...]

Speaks the Agent Client Protocol (ACP v1) on this process's stdio, so an ACP editor (Zed, …) can
drive a DeepSeek Harness runtime: each ACP session becomes a runtime session, its prompts runtime
prompts, the runtime's streamed reply ACP session updates. A runtime is started at initialize and
one more for each other working directory that session/new names; each inherits this
environment. stdout carries ACP frames only; diagnostics and the runtimes' stderr go to stderr.
At the end of stdin the requests read are answered, the runtimes shut down, and the bridge exits
0; if a runtime dies, every pending request fails with its exit and the end of its stderr, and
the bridge exits 1.
See docs/acp.md for the mapping and an editor's settings.

Route (either the three options, or --initialize):
  --provider NAME        the model provider, e.g. echo (required without --initialize)
  --model NAME           the model, e.g. echo-1 (required without --initialize)
  --effort NAME          the reasoning effort (default: the model's)
  --max-tokens N         cap of each model output
  --initialize JSON      the runtime's whole initialize params, e.g.
                         '{"provider":"echo","model":"echo-1"}' (its cwd is each runtime's own)

Options:
  -h, --help             show this help`;

const OPTIONS = {
  provider: { type: 'string' },
  model: { type: 'string' },
  effort: { type: 'string' },
  'max-tokens': { type: 'string' },
  initialize: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseVerbArgs<typeof OPTIONS>>['values'];

export async function runAcp(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseVerbArgs(args, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${ACP_HELP}\n`);
    return 0;
  }
  const route: RuntimeRoute = {
    command: runtimeCommand(positionals, 'acp').flat(),
    initialize: routeParams(values),
  };
  return runBridge({
    route,
    input: process.stdin,
    output: process.stdout,
    log: (line) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    version: cliVersion(),
  });
}

/** The handshake's params from the route options, checked against the IDL before anything starts. */
function routeParams(values: Values): Omit<InitializeParams, 'cwd'> {
  const routeOptions = (['provider', 'model', 'effort', 'max-tokens'] as const).filter(
    (name) => values[name] !== undefined,
  );
  if (values.initialize !== undefined && routeOptions.length > 0) {
    throw new UsageError(
      `--initialize replaces --${routeOptions.join(', --')}: give one or the other`,
    );
  }
  const params =
    values.initialize !== undefined ? parseInitialize(values.initialize) : fromOptions(values);
  const { cwd: _eachRuntimesOwn, ...route } = params;
  if (!validateInitializeParams({ ...route, cwd: process.cwd() })) {
    const violations = toViolations(validateInitializeParams.errors)
      .map((v) => `${v.pointer || '/'} ${v.message}`)
      .join('; ');
    throw new UsageError(`the route is not valid initialize params: ${violations}`);
  }
  return route as Omit<InitializeParams, 'cwd'>;
}

function fromOptions(values: Values): Record<string, unknown> {
  if (values.provider === undefined || values.model === undefined) {
    throw new UsageError('give the route: --provider and --model, or --initialize JSON');
  }
  const maxTokens = integerOption('max-tokens', values['max-tokens'], 1);
  return {
    provider: values.provider,
    model: values.model,
    ...(values.effort === undefined ? {} : { reasoningEffort: values.effort }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
  };
}

function parseInitialize(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--initialize is not JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError('--initialize must be a JSON object');
  }
  return value as Record<string, unknown>;
}

function cliVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}
