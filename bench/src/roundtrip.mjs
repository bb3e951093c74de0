// Request/response round trips over in-memory pipes: sequential, and 64 in flight.
import { PassThrough } from 'node:stream';
import { createInterface } from 'node:readline';
import { JSONRPCServerAndClient, JSONRPCServer, JSONRPCClient } from 'json-rpc-2.0';
import {
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} from 'vscode-jsonrpc/node.js';
import { HarnessSdkClientPeer, JsonRpcLineTransport, serveHarnessSdk } from '@dsh-sdk/protocol';

const PARAMS = { sessionId: 's-1', contentBlocks: [{ type: 'text', text: 'ping' }] };

function pipes() {
  const clientToServer = new PassThrough();
  const serverToClient = new PassThrough();
  return { clientToServer, serverToClient };
}

async function drive(call, count, inFlight) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return count;
}

export async function oursRoundTrips(count, inFlight, { validate }) {
  const { clientToServer, serverToClient } = pipes();
  const serverTransport = new JsonRpcLineTransport({
    input: clientToServer,
    output: serverToClient,
  });
  serveHarnessSdk(
    serverTransport,
    {
      initialize: () => {
        throw new Error('no');
      },
      shutdown: () => ({}),
      sessionPrompt: () => ({ messageId: 'm-1' }),
    },
    { validate },
  );
  const clientTransport = new JsonRpcLineTransport({
    input: serverToClient,
    output: clientToServer,
  });
  const client = new HarnessSdkClientPeer(clientTransport, { validate });
  serverTransport.start();
  clientTransport.start();
  const done = await drive(() => client.sessionPrompt(PARAMS), count, inFlight);
  clientTransport.close();
  serverTransport.close();
  return done;
}

/** A minimal hand-rolled NDJSON peer: the most a bare implementation does. */
export async function handRolledRoundTrips(count, inFlight) {
  const { clientToServer, serverToClient } = pipes();
  const onLines = (stream, handle) => {
    let carry = '';
    stream.setEncoding('utf8');
    stream.on('data', (text) => {
      const parts = (carry + text).split('\n');
      carry = parts.pop() ?? '';
      for (const line of parts) if (line) handle(JSON.parse(line));
    });
  };
  onLines(clientToServer, (req) =>
    serverToClient.write(
      JSON.stringify({ jsonrpc: '2.0', id: req.id, result: { messageId: 'm-1' } }) + '\n',
    ),
  );
  const pending = new Map();
  onLines(serverToClient, (res) => {
    pending.get(res.id)(res.result);
    pending.delete(res.id);
  });
  let nextId = 1;
  const call = () =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      clientToServer.write(
        JSON.stringify({ jsonrpc: '2.0', id, method: 'session/prompt', params: PARAMS }) + '\n',
      );
    });
  const done = await drive(call, count, inFlight);
  clientToServer.destroy();
  serverToClient.destroy();
  return done;
}

export async function jsonRpc2RoundTrips(count, inFlight) {
  const { clientToServer, serverToClient } = pipes();
  const server = new JSONRPCServer();
  server.addMethod('session/prompt', () => ({ messageId: 'm-1' }));
  createInterface({ input: clientToServer, crlfDelay: Infinity }).on('line', async (line) => {
    const response = await server.receive(JSON.parse(line));
    if (response) serverToClient.write(JSON.stringify(response) + '\n');
  });
  const client = new JSONRPCClient(
    (request) => void clientToServer.write(JSON.stringify(request) + '\n'),
  );
  createInterface({ input: serverToClient, crlfDelay: Infinity }).on('line', (line) =>
    client.receive(JSON.parse(line)),
  );
  const done = await drive(() => client.request('session/prompt', PARAMS), count, inFlight);
  clientToServer.destroy();
  serverToClient.destroy();
  return done;
}

export async function vscodeRoundTrips(count, inFlight) {
  const { clientToServer, serverToClient } = pipes();
  const server = createMessageConnection(
    new StreamMessageReader(clientToServer),
    new StreamMessageWriter(serverToClient),
  );
  server.onRequest('session/prompt', () => ({ messageId: 'm-1' }));
  server.listen();
  const client = createMessageConnection(
    new StreamMessageReader(serverToClient),
    new StreamMessageWriter(clientToServer),
  );
  client.listen();
  const done = await drive(() => client.sendRequest('session/prompt', PARAMS), count, inFlight);
  client.dispose();
  server.dispose();
  return done;
}

export { JSONRPCServerAndClient };
