// `dsh-sdk view TRACE [--out FILE.html]`: the timeline page, written to a file or served.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from '@dsh-sdk/protocol';
import { integerOption, parseVerbArgs, UsageError } from './cli-args.js';
import { startLocalServer, untilSignal } from './local-server.js';
import { renderTracePage } from './page-html.js';

export const VIEW_HELP = `Usage: dsh-sdk view TRACE [--out FILE.html] [--port N]

Shows a trace recorded by dsh-sdk trace (or a client) as a timeline: one lane per session with
child sessions nested, turns, steps, tool calls and subagents as spans, request → response pairs
with their latency, invalid frames marked, a detail pane with each frame's JSON, filters and
search. With --out, writes one self-contained HTML file (no network); without, serves the page on
127.0.0.1 and prints its URL (with the random token it requires) until interrupted.

Options:
  --out FILE.html   write the page to FILE.html instead of serving it
  --port N          port to serve on (default 0: any free port)
  -h, --help        show this help`;

const OPTIONS = {
  out: { type: 'string' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Reads a trace and checks its header: the format, and a version this build can show. */
export function readTrace(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  let header: { format?: unknown; version?: unknown } | undefined;
  try {
    header = JSON.parse(firstLine) as typeof header;
  } catch {
    header = undefined;
  }
  if (header?.format !== TRACE_FORMAT) {
    throw new UsageError(`${path} is not a trace: its first line is not a ${TRACE_FORMAT} header`);
  }
  if (typeof header.version !== 'number' || header.version > TRACE_FORMAT_VERSION) {
    throw new UsageError(
      `${path} is trace format version ${String(header.version)}; this dsh-sdk reads up to ${TRACE_FORMAT_VERSION}`,
    );
  }
  return text;
}

export async function runView(args: readonly string[]): Promise<number> {
  const { values, positionals } = parseVerbArgs(args, OPTIONS, true);
  if (values.help) {
    process.stdout.write(`${VIEW_HELP}\n`);
    return 0;
  }
  const [tracePath, ...extra] = positionals;
  if (tracePath === undefined) throw new UsageError('give the trace file to view');
  if (extra.length > 0) throw new UsageError(`one trace at a time (also got ${extra.join(' ')})`);
  const port = integerOption('port', values.port, 0);
  const html = renderTracePage(readTrace(tracePath), `${basename(tracePath)} · dsh-sdk`);
  if (values.out !== undefined) {
    writeFileSync(values.out, html);
    process.stderr.write(`dsh-sdk view: wrote ${values.out}\n`);
    return 0;
  }
  const server = await startLocalServer(
    {
      '/': (_request, response) => {
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
        });
        response.end(html);
      },
    },
    port ?? 0,
  );
  process.stdout.write(`${server.url}\n`);
  await untilSignal();
  await server.close();
  return 0;
}
