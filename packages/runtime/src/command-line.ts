// The runtime's command line: `dsh-sdk-runtime [--max-tokens-is-success] [--protocol-version N]`,
// with --help.
import { parseArgs } from 'node:util';
import { LATEST_PROTOCOL_VERSION } from '@dsh-sdk/protocol';

/** What the command line asks of the runtime. */
export interface CommandLine {
  readonly maxTokensIsSuccess: boolean;
  /** The protocol version to play, 1 … latest (default: the latest). */
  readonly protocolVersion: number;
}

export const USAGE = `usage: dsh-sdk-runtime [options]

Serves the DeepSeek Harness SDK protocol on stdin/stdout (logs go to stderr).

options:
  --max-tokens-is-success  report a child agent that stops with max-tokens as status "ok"
                           (default: only "completed" is "ok")
  --protocol-version N     play protocol version N, 1 to ${LATEST_PROTOCOL_VERSION} (default ${LATEST_PROTOCOL_VERSION}); 1 behaves
                           exactly as a version 1 runtime (for compatibility tests)
  -h, --help               show this help and exit

environment:
  DSH_SDK_RUNTIME_CHUNK_DELAY_MS  a pause before each assistant/chunk, 0 to 60000 (default 0);
                                  an interrupt cuts it short`;

/** The parsed command line, `'help'` for --help; throws a TypeError naming a bad argument. */
export function parseCommandLine(args: readonly string[]): CommandLine | 'help' {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      'max-tokens-is-success': { type: 'boolean', default: false },
      'protocol-version': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  return {
    maxTokensIsSuccess: values['max-tokens-is-success'],
    protocolVersion: parseProtocolVersion(values['protocol-version']),
  };
}

function parseProtocolVersion(raw: string | undefined): number {
  if (raw === undefined) return LATEST_PROTOCOL_VERSION;
  const version = Number(raw);
  if (/^\d+$/.test(raw) && version >= 1 && version <= LATEST_PROTOCOL_VERSION) return version;
  throw new TypeError(
    `--protocol-version ${raw}: expected an integer from 1 to ${LATEST_PROTOCOL_VERSION}`,
  );
}
