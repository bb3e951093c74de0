// Every emitter, in run order, and the places generated files may live.
import type { GeneratedLocations } from '../printer/write.js';
import type { Emitter } from './emitter.js';
import { PY_GEN_DIR, TS_GEN_DIR } from './emitter.js';
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
  jsonSchemaEmitter,
  tsTypesEmitter,
  tsGuardsEmitter,
  tsConstantsEmitter,
  tsMethodsEmitter,
  tsValidatorsEmitter,
  tsPeersEmitter,
  docsEmitter,
  pyModelsEmitter,
  pyBindingsEmitter,
  pyConvertersEmitter,
  pyValidatorsEmitter,
  pyPeersEmitter,
];

export const GENERATED_LOCATIONS: GeneratedLocations = {
  folders: [TS_GEN_DIR, PY_GEN_DIR],
  files: ['docs/protocol.md'],
};
