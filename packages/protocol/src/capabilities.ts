// The capabilities as the IDL lists them (CAPABILITIES, generated): what a runtime reports for the
// version it negotiated, and which capability a client needs before it sends a method.
import { CAPABILITIES } from './gen/methods.gen.js';
import type { CapabilityInfo } from './gen/methods.gen.js';
import type { ServerCapabilities } from './gen/types.gen.js';

/** What a runtime that negotiated `version` reports: every capability added at or before it, `true`. */
export function capabilitiesAt(version: number): ServerCapabilities {
  return Object.fromEntries(
    CAPABILITIES.filter((c) => c.since <= version).map((c) => [c.name, true]),
  );
}

/** The capability a client needs before it sends `method`, or undefined when none guards it. */
export function capabilityGuarding(method: string): CapabilityInfo | undefined {
  return CAPABILITIES.find((c) => (c.guards as readonly string[]).includes(method));
}
