// Declarations written against `@deepseek-ai/dsh-sdk-protocol`'s types, as its client, its server
// plugin and their tests use them. Compiled (strictly) by the consumer test; nothing runs.
import {
  JsonRpcLineTransport,
  JsonRpcResponseError,
  type HarnessSdkNotificationMap,
  type HarnessSdkRequestMap,
  type InitializeResult,
  type JsonRpcTransportPeer,
  type SubagentFinishedNotification,
} from '@deepseek-ai/dsh-sdk-protocol';

/** A test double of the outbound surface, as the server plugin's tests write one. */
export const recordingPeer: JsonRpcTransportPeer = {
  request: async (_method: string, _params: object): Promise<unknown> => ({}),
  notify: (_method: string, _params?: object): void => {},
};

/** The transport itself stands for the surface a server is typed against. */
export function peerOf(transport: JsonRpcLineTransport): JsonRpcTransportPeer {
  return transport;
}

/** An identity built from strings the client checked itself. */
export function identity(name: string, version: string): InitializeResult {
  return { serverInfo: { name, version } };
}

/** The shutdown result is an empty record. */
export const shutdownResult: Record<string, never> =
  {} as HarnessSdkRequestMap['shutdown']['result'];
export const shutdownParams: HarnessSdkRequestMap['shutdown']['params'] = undefined;

/** Wire errors: code, positional data and message. */
export const initFailure = new JsonRpcResponseError(7, 'scripted init failure', { hint: 'fake' });
export const wireCode: number | undefined = initFailure.code;
export const wireData: unknown = initFailure.data;
export const text: string = initFailure.message;

/** The calls a server makes around exiting, and one request bounded by a signal. */
export async function drain(transport: JsonRpcLineTransport, signal: AbortSignal): Promise<void> {
  await transport.request('shutdown', {}, signal);
  await transport.flush();
  transport.close();
}

/** Handlers of every method, as the original's `onRequest` and `onNotification` take them. */
export function serve(transport: JsonRpcLineTransport): void {
  transport.onRequest(async (method: string, params: Record<string, unknown>) => ({
    method,
    params,
  }));
  transport.onNotification((method: string, params: Record<string, unknown>) => {
    if (method === 'subagent.finished') {
      const finished = params as unknown as SubagentFinishedNotification;
      const status: HarnessSdkNotificationMap['subagent.finished']['status'] = finished.status;
      void status;
    }
  });
}
