// A web server for one person on this machine: bound to 127.0.0.1, every request carrying the
// random token of its URL, and a Host header naming the loopback (no DNS rebinding).
/// <reference types="node" preserve="true" />
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
) => void | Promise<void>;

export interface LocalServer {
  readonly server: Server;
  readonly token: string;
  /** The page's address, token included. */
  readonly url: string;
  close(): Promise<void>;
}

const LOOPBACK = '127.0.0.1';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function tokenMatches(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
  });
  response.end(text);
}

/** Reads a JSON request body of at most `limit` bytes. */
export async function readJson(request: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new RangeError(`the request body is over ${limit} bytes`);
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

/**
 * Serves `routes` (by path) on 127.0.0.1:`port` (0: any free port). A request without the token,
 * or whose Host is not this loopback address, is refused 403 before any route runs.
 */
export async function startLocalServer(
  routes: Readonly<Record<string, Route>>,
  port = 0,
): Promise<LocalServer> {
  const token = newToken();
  let actualPort = 0;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${LOOPBACK}`);
    const host = request.headers.host ?? '';
    const hostOk = host === `${LOOPBACK}:${actualPort}` || host === `localhost:${actualPort}`;
    const given =
      url.searchParams.get('token') ?? request.headers['x-dsh-token']?.toString() ?? null;
    if (!hostOk || !tokenMatches(given, token)) {
      sendJson(response, 403, {
        error: 'forbidden: open the URL printed by dsh-sdk, token included',
      });
      return;
    }
    const route = routes[url.pathname];
    if (!route) {
      sendJson(response, 404, { error: `no ${url.pathname} here` });
      return;
    }
    Promise.resolve(route(request, response, url)).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK, () => resolve());
  });
  actualPort = (server.address() as AddressInfo).port;
  return {
    server,
    token,
    url: `http://${LOOPBACK}:${actualPort}/?token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Resolves on the first of these signals (the server's stop command). */
export function untilSignal(
  signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handlers = signals.map((signal) => {
      const handler = (): void => {
        for (const [s, h] of handlers) process.off(s, h);
        resolve(signal);
      };
      process.on(signal, handler);
      return [signal, handler] as const;
    });
  });
}
