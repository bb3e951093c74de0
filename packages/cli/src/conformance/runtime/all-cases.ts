// Every runtime case, in the order they are listed and reported.
import type { RuntimeCase } from './case.js';
import { CLOSING_CASES } from './cases/closing.js';
import { DELEGATION_CASES } from './cases/delegation.js';
import { HANDSHAKE_CASES } from './cases/handshake.js';
import { HOSTILE_CASES } from './cases/hostile.js';
import { PARAMS_CASES } from './cases/params.js';
import { PROMPT_CASES } from './cases/prompt.js';
import { STOPPING_CASES } from './cases/stopping.js';
import { VERSION_CASES } from './cases/version.js';
import { vectorCases } from './cases/vectors.js';

let cases: RuntimeCase[] | undefined;

export function runtimeCases(): readonly RuntimeCase[] {
  cases ??= [
    ...HANDSHAKE_CASES,
    ...VERSION_CASES,
    ...PARAMS_CASES,
    ...PROMPT_CASES,
    ...HOSTILE_CASES,
    ...STOPPING_CASES,
    ...CLOSING_CASES,
    ...DELEGATION_CASES,
    ...vectorCases(),
  ];
  return cases;
}
