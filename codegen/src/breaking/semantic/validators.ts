// ajv validators for one model, built as the generated validators are: the validation bundle
// (union dispatch on the discriminator) and canonical base64 asserted.
import AjvModule, { type ValidateFunction } from 'ajv';
import { assertContentEncoding } from '../../emit/ajv-keywords.js';
import type { Model } from '../../idl/model.js';
import { REF_PREFIX } from '../../idl/model.js';
import { IN_MEMORY_SCHEMA_ID, buildSchemaBundle } from '../../schema/bundle.js';
import { buildValidationBundle, validationBundleId } from '../../schema/validation.js';

const Ajv = AjvModule.default;

export interface Verdict {
  readonly isValid: boolean;
  /** The first violation, when invalid: where and why. */
  readonly violation: string;
}

export type TypeValidator = (value: unknown) => Verdict;

/** Validators by type name, compiled on first use. */
export function createValidators(model: Model): (typeName: string) => TypeValidator | null {
  const ajv = new Ajv({
    allErrors: false,
    strict: false,
    unicode: false,
    logger: false,
    validateFormats: false,
  });
  assertContentEncoding(ajv);
  ajv.addSchema(buildValidationBundle(buildSchemaBundle(model, IN_MEMORY_SCHEMA_ID), model));
  const bundleId = validationBundleId(IN_MEMORY_SCHEMA_ID);
  const cache = new Map<string, TypeValidator | null>();
  return (typeName) => {
    if (!cache.has(typeName)) {
      const validate = ajv.getSchema(`${bundleId}${REF_PREFIX}${typeName}`);
      cache.set(typeName, validate ? toValidator(validate) : null);
    }
    return cache.get(typeName) ?? null;
  };
}

function toValidator(validate: ValidateFunction): TypeValidator {
  return (value) => {
    if (validate(value)) return { isValid: true, violation: '' };
    const first = validate.errors?.[0];
    return {
      isValid: false,
      violation: `${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`,
    };
  };
}
