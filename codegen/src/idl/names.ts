// The only place where casing changes. The IDL decides names; languages only change their case.

/** `sessionPrompt` → `SessionPrompt`. */
export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `maxTokens` → `max_tokens`; `isError` → `is_error`; `URLPath` → `url_path`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-/.\s]+/g, '_')
    .toLowerCase();
}

/** `invalid-utf8` → `invalidUtf8` (a diagnostic reason as a message name). */
export function camelCase(name: string): string {
  return name.replace(/[-_/.\s]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `sessionPrompt` → `SESSION_PROMPT`; `invalid-json` → `INVALID_JSON`. */
export function constantCase(name: string): string {
  return snakeCase(name).toUpperCase();
}

/** `sessionPrompt` → `session-prompt` (test-vector folder names). */
export function kebabCase(name: string): string {
  return snakeCase(name).replace(/_/g, '-');
}

/** Python's keywords (`keyword.kwlist`); soft keywords such as `type` are valid names. */
const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/**
 * A Python identifier that is not a keyword: `class` → `class_`, as datamodel-code-generator
 * renames fields. (TypeScript needs no such function: names from the IDL are only property and
 * method names there, where reserved words are allowed, or PascalCase type names.)
 */
export function safePyIdentifier(name: string): string {
  return PY_KEYWORDS.has(name) ? `${name}_` : name;
}
