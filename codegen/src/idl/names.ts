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

/** `sessionPrompt` → `SESSION_PROMPT`; `invalid-json` → `INVALID_JSON`. */
export function constantCase(name: string): string {
  return snakeCase(name).toUpperCase();
}

/** `sessionPrompt` → `session-prompt` (test-vector folder names). */
export function kebabCase(name: string): string {
  return snakeCase(name).replace(/_/g, '-');
}

const TS_RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield'.split(
    ' ',
  ),
);

const PY_RESERVED = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield type'.split(
    ' ',
  ),
);

/** A TypeScript identifier that is not a reserved word. */
export function safeTsIdentifier(name: string): string {
  return TS_RESERVED.has(name) ? `${name}$` : name;
}

/** A Python identifier that is not a keyword (or the soft keyword `type`). */
export function safePyIdentifier(name: string): string {
  return PY_RESERVED.has(name) ? `${name}_` : name;
}
