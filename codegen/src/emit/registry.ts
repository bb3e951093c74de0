// Every emitter, in run order. Each writes for one target of protocol.targets.json and runs only
// for the protocols that have it. The ones whose output takes longest to format run first, so
// their formatting (on worker threads) overlaps the other emitters' work.
import type { Emitter } from './emitter.js';
import { docsEmitter } from './docs.js';
import { jsonSchemaEmitter } from './json-schema.js';
import { pyBindingsEmitter } from './py-bindings.js';
import { pyConvertersEmitter } from './py-converters.js';
import { pyModelsEmitter } from './py-models.js';
import { pyPeersEmitter } from './py-peers.js';
import { pyValidatorsEmitter } from './py-validators.js';
import { tsConstantsEmitter } from './ts-constants.js';
import { tsGuardsEmitter } from './ts-guards.js';
import { tsMethodsEmitter } from './ts-methods.js';
import { tsPeersEmitter } from './ts-peers.js';
import { tsTypesEmitter } from './ts-types.js';
import { tsValidatorsEmitter } from './ts-validators.js';

export const EMITTERS: readonly Emitter[] = [
  tsValidatorsEmitter,
  docsEmitter,
  jsonSchemaEmitter,
  tsTypesEmitter,
  tsGuardsEmitter,
  tsConstantsEmitter,
  tsMethodsEmitter,
  tsPeersEmitter,
  pyModelsEmitter,
  pyBindingsEmitter,
  pyConvertersEmitter,
  pyValidatorsEmitter,
  pyPeersEmitter,
];
