// The client's requirements: its own traffic (judged on the wire by the kit playing the runtime)
// and what its driver reports for each scenario.
import { req } from './types.js';
import type { Requirement } from './types.js';

const M = 'MANDATORY';
const A = 'ADVISORY';

export const CLIENT_REQUIREMENTS: readonly Requirement[] = [
  req(
    'DSH-CLIENT-001',
    M,
    'WIRE.md §6; §4',
    "The client's first frame is `initialize`, and it sends no other request before the answer.",
  ),
  req('DSH-CLIENT-002', M, 'WIRE.md §6', 'The client initializes once per runtime process.'),
  req(
    'DSH-CLIENT-003',
    M,
    'WIRE.md §1',
    'Every frame the client writes is one compact JSON object per `\\n`-terminated line, valid UTF-8, with `"jsonrpc":"2.0"`.',
  ),
  req(
    'DSH-CLIENT-004',
    M,
    'WIRE.md §2',
    'Request ids are strings or numbers, and no id is reused while its request is pending.',
  ),
  req(
    'DSH-CLIENT-005',
    M,
    'WIRE.md §3, §4; protocol.idl.json#/methods',
    "Requests are the IDL's client → server requests, with params that validate against its schema.",
  ),
  req(
    'DSH-CLIENT-006',
    M,
    'WIRE.md §6',
    "The client sends `shutdown` before it closes a live runtime's stdin.",
  ),
  req(
    'DSH-CLIENT-007',
    M,
    'WIRE.md §6',
    'Against a runtime that ignores `shutdown`, stdin and SIGTERM, the client climbs the ladder in order (`shutdown`, close stdin, SIGTERM, SIGKILL), waiting between the steps, and is done within the bound.',
  ),
  req(
    'DSH-CLIENT-008',
    M,
    'WIRE.md §9 Negotiation',
    'No `session/interrupt` or `session/close` goes to a runtime that did not report its capability: the call fails locally.',
  ),
  req(
    'DSH-CLIENT-009',
    M,
    'WIRE.md §9 Negotiation',
    'On version 2, stopping a run sends `session/interrupt` for its session and closing sends `session/close`; the run ends `aborted`.',
  ),
  req(
    'DSH-CLIENT-010',
    M,
    'WIRE.md §6',
    'When the runtime dies, pending requests fail at once with a diagnostic that names its exit code and the end of its stderr.',
  ),
  req(
    'DSH-CLIENT-011',
    M,
    'WIRE.md §1, §2',
    'Garbage, blank and unknown-id lines are ignored: the run completes with the right text.',
  ),
  req(
    'DSH-CLIENT-012',
    M,
    'WIRE.md §5',
    'Unknown notifications and unknown event types pass through: the run completes, and the unknown event is among its events.',
  ),
  req(
    'DSH-CLIENT-013',
    M,
    'WIRE.md §6',
    'Notifications right after the handshake, for sessions the client does not own, do not disturb its run.',
  ),
  req(
    'DSH-CLIENT-014',
    M,
    'WIRE.md §1',
    'A burst of 100,000 events is read to the end: the run completes with the right text.',
  ),
  req(
    'DSH-CLIENT-015',
    M,
    'WIRE.md §1',
    'An 8 MiB frame is read whole (the default frame limit is 64 MiB).',
  ),
  req('DSH-CLIENT-016', M, 'WIRE.md §1', 'UTF-8 characters split across writes are decoded whole.'),
  req('DSH-CLIENT-017', M, 'WIRE.md §6', 'Slow answers settle their requests: the run completes.'),
  req(
    'DSH-CLIENT-018',
    M,
    'WIRE.md §6',
    "The client drains the runtime's stderr: a runtime that writes 1 MiB of it is not stalled.",
  ),
  req(
    'DSH-CLIENT-019',
    M,
    'WIRE.md §6',
    "A run's final text is the text of the last `assistant/message`, and its finish reason the last `turn/end`'s `reason.kind`.",
  ),
  req(
    'DSH-CLIENT-020',
    M,
    'WIRE.md §6',
    "A run ends on its root session's `idle`: the client does not go on before it.",
  ),
  req(
    'DSH-CLIENT-021',
    M,
    'WIRE.md §8 Errors',
    'Nothing is sent after `shutdown` has been answered.',
  ),
  req(
    'DSH-CLIENT-022',
    M,
    'docs/conformance.md (drivers)',
    "The driver prints its result line and exits within the scenario's bound.",
  ),
  req(
    'DSH-CLIENT-023',
    A,
    'WIRE.md §2',
    'Request ids are never reused on one connection, even after their answer.',
  ),
];
