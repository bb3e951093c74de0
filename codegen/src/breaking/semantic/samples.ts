// Messages drawn from a schema with json-schema-faker, seeded, so every run checks the same ones.
import { createGeneratorSync } from 'json-schema-faker';
import type { RawIdl } from '../../idl/build-model.js';
import { TYPE_SECTIONS } from '../../idl/build-model.js';

/** The IDL's types as one schema document faker can resolve `#/definitions/…` in. */
export function samplingDefinitions(raw: RawIdl): Record<string, unknown> {
  const definitions: Record<string, unknown> = {};
  for (const section of TYPE_SECTIONS)
    for (const [name, schema] of Object.entries(raw[section])) {
      const { examples: _examples, ...rest } = schema;
      definitions[name] = rest;
    }
  return definitions;
}

/** `count` samples of a type: half with each optional member at even odds, half with all of them. */
export function sampleType(
  definitions: Record<string, unknown>,
  typeName: string,
  count: number,
  seed: number,
): unknown[] {
  const schema = { definitions, $ref: `#/definitions/${typeName}` };
  const depth = { refDepthMax: 12, maxDepth: 12, maxDefaultItems: 3 };
  const some = createGeneratorSync({ seed, optionalsProbability: 0.5, ...depth });
  const all = createGeneratorSync({ seed: seed + 7919, alwaysFakeOptionals: true, ...depth });
  const samples: unknown[] = [];
  for (let i = 0; i < count; i++) {
    try {
      samples.push((i % 2 === 0 ? some : all).generate(schema));
    } catch {
      // faker gives up on some schemas (an unsatisfiable branch); the other samples still count
    }
  }
  return samples;
}
