// Which validators exist and what they are called; shared by the TypeScript and Python emitters.
import type { Method, Model, SchemaNode } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';

export interface ValidatorSpec {
  /** camelCase TypeScript name, e.g. `validateInitializeParams`. */
  readonly name: string;
  /** The definition it checks, or null for a method without params (object, null or absent). */
  readonly typeName: string | null;
  /** The TypeScript type it narrows to. */
  readonly tsType: string;
}

export function paramsValidator(method: Method): ValidatorSpec {
  return method.params
    ? { name: `validate${method.params}`, typeName: method.params, tsType: method.params }
    : {
        name: `validate${pascalCase(method.name)}Params`,
        typeName: null,
        tsType: 'Record<string, unknown> | null',
      };
}

export function resultValidator(method: Method): ValidatorSpec | null {
  return method.result
    ? { name: `validate${method.result}`, typeName: method.result, tsType: method.result }
    : null;
}

/** Every validator, in IDL method order, without duplicates. */
export function validatorSpecs(model: Model): ValidatorSpec[] {
  const specs = new Map<string, ValidatorSpec>();
  for (const method of model.methods) {
    const params = paramsValidator(method);
    specs.set(params.name, params);
    const result = resultValidator(method);
    if (result) specs.set(result.name, result);
  }
  return [...specs.values()];
}

/**
 * The params of a method without params: an object or null. Its members are open content, held to
 * the number rule; `openValueRef` is how the validator's schema refers to `OpenValue`.
 */
export function noParamsSchema(openValueRef: string): SchemaNode {
  return { type: ['object', 'null'], additionalProperties: { $ref: openValueRef } };
}
