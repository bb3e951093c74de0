// Runs the generated TypeScript validators and the TypeScript violation mapping on cases read from
// stdin ([{ "validator": "validateInitializeParams", "value": … }, …]) and prints, per case, the
// violations the TypeScript side reports. Used by tests/test_validators.py; run with tsx.
import * as validators from '../../../packages/protocol/src/gen/validators.gen.js';
import { toViolations } from '../../../packages/protocol/src/violations.js';

type Case = { validator: string; value: unknown };

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const cases = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Case[];
const table = validators as unknown as Record<string, validators.Validator<unknown>>;
const results = cases.map(({ validator, value }) => {
  const validate = table[validator];
  if (!validate) throw new Error(`no validator ${validator}`);
  validate(value);
  return toViolations(validate.errors);
});
process.stdout.write(JSON.stringify(results));
