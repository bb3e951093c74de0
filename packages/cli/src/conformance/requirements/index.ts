// The registries, by kind of peer judged.
import { CLIENT_REQUIREMENTS } from './client.js';
import { RUNTIME_BEHAVIOUR_REQUIREMENTS } from './runtime-behaviour.js';
import { RUNTIME_WIRE_REQUIREMENTS } from './runtime-wire.js';
import type { Requirement } from './types.js';

export type PeerKind = 'runtime' | 'client';

export const REQUIREMENTS: Readonly<Record<PeerKind, readonly Requirement[]>> = {
  runtime: [...RUNTIME_WIRE_REQUIREMENTS, ...RUNTIME_BEHAVIOUR_REQUIREMENTS],
  client: CLIENT_REQUIREMENTS,
};

export function requirementById(kind: PeerKind, id: string): Requirement | undefined {
  return REQUIREMENTS[kind].find((r) => r.id === id);
}

export type { Outcome, Requirement, Tier } from './types.js';
export { OUTCOMES, TIERS } from './types.js';
