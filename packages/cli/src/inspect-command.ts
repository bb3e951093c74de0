// `dsh-sdk inspect [options] -- <runtime command>`: the live inspector.
import type { InitializeParams } from '@dsh-sdk/protocol';
import { integerOption, parseVerbArgs, runtimeCommand, UsageError } from './cli-args.js';
import { describeEnd } from './inspected-runtime.js';
import { Inspector } from './inspector.js';
import { untilSignal } from './local-server.js';

export const INSPECT_HELP = `Usage: dsh-sdk inspect [options] -- <runtime command> [args...]

Starts the runtime behind the recording proxy, with this process as its client, and serves a live
page on 127.0.0.1: the timeline updating as frames pass, a prompt box (text and an image file),
a session picker with Interrupt and Close, the runtime's stderr, and the trace to download. The
page's URL, printed on stdout, carries a random token that every request must present. With
--provider and --model the runtime is initialized at once; otherwise the page asks. A runtime
that cannot start or exits is reported on the page (exit code or signal, its stderr's tail) and
here; the page's Restart starts a fresh one (its trace in FILE-2.ndjson, … with --out), and the
earlier runs stay on the page to view or download. The timeline follows the newest activity
until a zoom, a scroll or fit (its follow button resumes). Ctrl-C shuts the runtime down
(shutdown, stdin's end, SIGTERM, SIGKILL, each bounded) and stops.

Options:
  --provider NAME         initialize with this provider (with --model)
  --model NAME            initialize with this model (with --provider)
  --cwd DIR               the initialize cwd (default: the current directory)
  --reasoning-effort E    the initialize reasoningEffort
  --max-tokens N          the initialize maxTokens
  --out FILE              also write the trace to FILE (a restarted runtime's: FILE-2, …)
  --port N                port to serve on (default 0: any free port)
  --max-frame-bytes N     longest line decoded by the recorder (default: the protocol's)
  -h, --help              show this help`;

const OPTIONS = {
  provider: { type: 'string' },
  model: { type: 'string' },
  cwd: { type: 'string' },
  'reasoning-effort': { type: 'string' },
  'max-tokens': { type: 'string' },
  out: { type: 'string' },
  port: { type: 'string' },
  'max-frame-bytes': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runInspect(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseVerbArgs(args, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${INSPECT_HELP}\n`);
    return 0;
  }
  const [program, programArgs] = runtimeCommand(positionals, 'inspect');
  if ((values.provider === undefined) !== (values.model === undefined)) {
    throw new UsageError('give --provider and --model together (or neither, and use the page)');
  }
  const cwd = values.cwd ?? process.cwd();
  const maxTokens = integerOption('max-tokens', values['max-tokens'], 1);
  const maxFrameBytes = integerOption('max-frame-bytes', values['max-frame-bytes'], 1);
  const port = integerOption('port', values.port, 0);
  const initialize: InitializeParams | undefined =
    values.provider === undefined || values.model === undefined
      ? undefined
      : {
          cwd,
          provider: values.provider,
          model: values.model,
          ...(values['reasoning-effort'] === undefined
            ? {}
            : { reasoningEffort: values['reasoning-effort'] }),
          ...(maxTokens === undefined ? {} : { maxTokens }),
        };
  const log = (line: string): void => void process.stderr.write(`dsh-sdk inspect: ${line}\n`);
  const inspector = new Inspector({
    program,
    args: programArgs,
    ...(port === undefined ? {} : { port }),
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(initialize === undefined ? {} : { initialize }),
    ...(maxFrameBytes === undefined ? {} : { maxFrameBytes }),
    defaults: { cwd, provider: values.provider ?? '', model: values.model ?? '' },
    log,
  });
  const stopped = untilSignal();
  const url = await inspector.start();
  process.stdout.write(`${url}\n`);
  log('serving the page above on 127.0.0.1; Ctrl-C stops');
  await stopped;
  const end = await inspector.stop();
  log(`stopped; the runtime ${describeEnd(end)}`);
  return 0;
}
