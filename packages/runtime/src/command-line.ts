// The runtime's command line: `dsh-sdk-runtime [--max-tokens-is-success]`, with --help.
import { parseArgs } from 'node:util';

/** What the command line asks of the runtime. */
export interface CommandLine {
  readonly maxTokensIsSuccess: boolean;
}

export const USAGE = `usage: dsh-sdk-runtime [options]

Serves the DeepSeek Harness SDK protocol on stdin/stdout (logs go to stderr).

options:
  --max-tokens-is-success  report a child agent that stops with max-tokens as status "ok"
                           (default: only "completed" is "ok")
  -h, --help               show this help and exit

environment:
  DSH_SDK_RUNTIME_CHUNK_DELAY_MS  a pause before each assistant/chunk, 0 to 60000 (default 0)`;

/** The parsed command line, `'help'` for --help; throws a TypeError naming a bad argument. */
export function parseCommandLine(args: readonly string[]): CommandLine | 'help' {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      'max-tokens-is-success': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  return { maxTokensIsSuccess: values['max-tokens-is-success'] };
}
