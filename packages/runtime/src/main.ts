// The runtime's process: the protocol on stdin/stdout, logs on stderr.
// Exit codes: 0 after `shutdown` or the end of stdin; 1 when stdout broke or the runtime failed.
import { USAGE, parseCommandLine } from './command-line.js';
import type { CommandLine } from './command-line.js';
import { serveRuntime } from './runtime.js';

const PREFIX = 'dsh-sdk-runtime';

function log(line: string): void {
  process.stderr.write(`${PREFIX}: ${line}\n`);
}

/** `DSH_SDK_RUNTIME_CHUNK_DELAY_MS`: a pause before each chunk, to watch replies stream. */
function readChunkDelay(): number {
  const raw = process.env['DSH_SDK_RUNTIME_CHUNK_DELAY_MS'];
  if (raw === undefined || raw === '') return 0;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 0 && value <= 60_000) return value;
  log(`ignoring DSH_SDK_RUNTIME_CHUNK_DELAY_MS=${raw}: expected an integer from 0 to 60000`);
  return 0;
}

/** The command line, or the exit after --help (0) or a bad argument (2). */
function readCommandLine(): CommandLine {
  try {
    const parsed = parseCommandLine(process.argv.slice(2));
    if (parsed !== 'help') return parsed;
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  } catch (error) {
    process.stderr.write(
      `${PREFIX}: ${error instanceof Error ? error.message : error}\n${USAGE}\n`,
    );
    process.exit(2);
  }
}

const commandLine = readCommandLine();

process.on('uncaughtException', (error) => {
  log(`internal error: ${error.stack ?? error.message}`);
  process.exit(1);
});

const end = await serveRuntime({
  input: process.stdin,
  output: process.stdout,
  log,
  chunkDelayMs: readChunkDelay(),
  maxTokensIsSuccess: commandLine.maxTokensIsSuccess,
  protocolVersion: commandLine.protocolVersion,
});
if (end === 'output-failed') log('stopping: stdout is broken (the client stopped reading)');
process.exit(end === 'output-failed' ? 1 : 0);
