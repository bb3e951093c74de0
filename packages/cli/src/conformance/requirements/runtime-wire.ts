// The runtime's requirements on the wire itself: framing, stdout hygiene, classification, errors
// and hostile input (WIRE.md §1, §2, §6, §8). The behaviour of the methods is in
// runtime-behaviour.ts.
import { req } from './types.js';
import type { Requirement } from './types.js';

const M = 'MANDATORY';
const A = 'ADVISORY';

export const RUNTIME_WIRE_REQUIREMENTS: readonly Requirement[] = [
  req(
    'DSH-FRAME-001',
    M,
    'WIRE.md §1; §8 Framing and JSON',
    'Every line the runtime writes to stdout is valid UTF-8.',
  ),
  req(
    'DSH-FRAME-002',
    M,
    'WIRE.md §1',
    'Every line holds one strict JSON value (RFC 8259), and it is an object: never an array, a scalar or two values.',
  ),
  req(
    'DSH-FRAME-003',
    M,
    'WIRE.md §1; §8 Framing and JSON',
    'Lines are compact: no insignificant whitespace, no blank line, no `\\r` before the `\\n`.',
  ),
  req('DSH-FRAME-004', M, 'WIRE.md §1', 'Every message carries `"jsonrpc":"2.0"`.'),
  req(
    'DSH-FRAME-005',
    M,
    'WIRE.md §8 Framing and JSON',
    'A string holding a lone surrogate is written escaped (`\\ud800`), never as bytes, and the runtime goes on serving.',
  ),
  req(
    'DSH-FRAME-006',
    M,
    'WIRE.md §1',
    'Every frame ends with `\\n`: the output never ends in the middle of a line.',
  ),
  req(
    'DSH-STDOUT-001',
    M,
    'WIRE.md §8 Framing and JSON',
    'Nothing is written to stdout before the first request arrives.',
  ),
  req(
    'DSH-STDOUT-002',
    M,
    'WIRE.md §6',
    'stdout carries protocol frames only: every object is a JSON-RPC response or notification (logs go to stderr).',
  ),
  req(
    'DSH-MSG-001',
    M,
    'WIRE.md §2',
    'A response answers a request the client sent and has not had answered, under the same id: the same JSON type and value (`"1"` is not `1`).',
  ),
  req('DSH-MSG-002', M, 'WIRE.md §2', 'Every request with a valid id is answered, once.'),
  req(
    'DSH-MSG-003',
    M,
    'WIRE.md §2',
    'A response holds exactly one of `result` and `error`; an error holds an integer `code` and a string `message`.',
  ),
  req(
    'DSH-MSG-004',
    M,
    'WIRE.md §2, §3',
    'The runtime sends no requests and no client → server method: only server → client notifications.',
  ),
  req(
    'DSH-MSG-005',
    M,
    'WIRE.md §4, §5; protocol.idl.json#/methods',
    "Notification params validate against the IDL's schema of their method.",
  ),
  req(
    'DSH-MSG-006',
    M,
    'WIRE.md §3, §4; protocol.idl.json#/methods',
    "Results validate against the IDL's result schema of the request's method.",
  ),
  req(
    'DSH-MSG-007',
    A,
    'WIRE.md §3',
    'Notifications use methods the IDL defines (clients drop an unknown one).',
  ),
  req(
    'DSH-ERR-001',
    M,
    'WIRE.md §2',
    'A request for a method the runtime does not serve is answered `-32601`, before and after `initialize`.',
  ),
  req(
    'DSH-ERR-002',
    M,
    'WIRE.md §2; §8 Errors',
    '`-32602` carries `data`: a non-empty list of violations, each `{pointer, message}`, a JSON pointer into the params and a readable reason.',
  ),
  req(
    'DSH-ERR-003',
    A,
    'WIRE.md §8 Errors',
    'Each `-32602` violation points at the offending member itself, not only at an ancestor.',
  ),
  req(
    'DSH-ERR-004',
    A,
    'protocol.idl.json#/methods/*/errors',
    'Error codes are the ones the IDL lists for the method, or `-32601` and `-32603`.',
  ),
  req(
    'DSH-HOSTILE-001',
    M,
    'WIRE.md §1; §8 Framing and JSON; test-vectors/framing/read',
    'A line that is not a JSON-RPC object is ignored and never answered, and the runtime goes on serving: not JSON, not UTF-8, a scalar, `NaN`, `Infinity`, raw control characters, trailing garbage, and the golden framing vectors.',
  ),
  req(
    'DSH-HOSTILE-002',
    M,
    'WIRE.md §8 Framing and JSON',
    'A batch (a JSON array) is ignored, never answered.',
  ),
  req(
    'DSH-HOSTILE-003',
    M,
    'WIRE.md §8 Framing and JSON; protocol.idl.json#/diagnostics/4',
    'A frame whose `id` is `null`, a boolean, an object, an array or beyond ±(2^53−1) is ignored, never answered.',
  ),
  req(
    'DSH-HOSTILE-004',
    M,
    'WIRE.md §1',
    'Blank lines are ignored, and a `\\r` before the `\\n` is tolerated.',
  ),
  req(
    'DSH-HOSTILE-005',
    M,
    'WIRE.md §1',
    'A request split across writes anywhere, inside a multi-byte character included, is read whole.',
  ),
  req(
    'DSH-HOSTILE-006',
    M,
    'WIRE.md §1',
    'A line over the frame limit (64 MiB by default) is dropped, and the stream goes on with the next line.',
  ),
  req(
    'DSH-HOSTILE-007',
    M,
    'WIRE.md §2',
    'Notifications are never answered, unknown ones included, and responses whose id matches nothing are ignored.',
  ),
  req(
    'DSH-HOSTILE-008',
    M,
    'protocol.idl.json#/meta/description',
    'A request nested deeper than `maxNestingDepth` (64) levels is answered `-32600`.',
  ),
  req(
    'DSH-HOSTILE-009',
    M,
    'WIRE.md §8 Framing and JSON; protocol.idl.json#/diagnostics/5',
    'The `jsonrpc` member is not required, but one that is present and not `"2.0"` makes the frame ignored.',
  ),
];
