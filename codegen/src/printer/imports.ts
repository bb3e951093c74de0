// The imports a generated file records as it is printed (protobuf-es's rule: a symbol used is a
// symbol imported), rendered once, sorted, in the file's language.

/** Python's line length, as `ruff format` (and black) are configured in python/pyproject.toml. */
export const PY_LINE_LENGTH = 100;

interface ImportedName {
  /** The name the file prints (`as` alias in Python, else the name itself). */
  readonly local: string;
  /** True while every use of the name was as a type (TypeScript `import type`). */
  isTypeOnly: boolean;
}

/** Every import of one file: names by module, and (Python) whole modules. */
export class ImportSet {
  /** module → imported name → how it is used. */
  readonly #names = new Map<string, Map<string, ImportedName>>();
  readonly #modules = new Set<string>();

  /** Records `name` from `module`; returns the identifier to print. */
  add(name: string, module: string, options: { isTypeOnly?: boolean; as?: string } = {}): string {
    const names = this.#names.get(module) ?? new Map<string, ImportedName>();
    this.#names.set(module, names);
    const isTypeOnly = options.isTypeOnly ?? false;
    const found = names.get(name);
    if (found) {
      if (options.as !== undefined && options.as !== found.local)
        throw new Error(`${name} from ${module} is imported as ${found.local} already`);
      found.isTypeOnly &&= isTypeOnly;
      return found.local;
    }
    const local = options.as ?? name;
    names.set(name, { local, isTypeOnly });
    return local;
  }

  /** Records a whole module (Python `import re`); returns the name to print. */
  addModule(module: string): string {
    this.#modules.add(module);
    return module;
  }

  get isEmpty(): boolean {
    return this.#names.size === 0 && this.#modules.size === 0;
  }

  /** `import { a } from 'm';` then `import type { b } from 'm';`, modules in order. */
  renderTs(): string[] {
    const lines: string[] = [];
    for (const module of [...this.#names.keys()].sort()) {
      const names = [...(this.#names.get(module) ?? new Map<string, ImportedName>()).entries()];
      const values = names.filter(([, n]) => !n.isTypeOnly).map(([name]) => name);
      const types = names.filter(([, n]) => n.isTypeOnly).map(([name]) => name);
      if (values.length > 0)
        lines.push(`import { ${sorted(values).join(', ')} } from '${module}';`);
      if (types.length > 0)
        lines.push(`import type { ${sorted(types).join(', ')} } from '${module}';`);
    }
    return lines;
  }

  /**
   * isort's sections: `__future__`, the standard library, then the package itself (`firstParty`),
   * a blank line between them; in each, `import m` lines first, then `from m import …` by module.
   */
  renderPy(firstParty: string): string[] {
    const sectionOf = (module: string): number => {
      if (module === '__future__') return 0;
      return module === firstParty || module.startsWith(`${firstParty}.`) ? 2 : 1;
    };
    const sections: string[][] = [[], [], []];
    for (const module of [...this.#modules].sort())
      sections[sectionOf(module)]?.push(`import ${module}`);
    for (const module of [...this.#names.keys()].sort()) {
      const names = [...(this.#names.get(module) ?? new Map<string, ImportedName>()).entries()];
      const spelled = names.map(([name, n]) => (n.local === name ? name : `${name} as ${n.local}`));
      sections[sectionOf(module)]?.push(pyFromImport(module, spelled));
    }
    return sections
      .filter((lines) => lines.length > 0)
      .flatMap((lines, i) => (i > 0 ? ['', ...lines] : lines));
  }
}

function sorted(names: readonly string[]): string[] {
  return [...names].sort();
}

/** `from <module> import <names>`, names sorted; parenthesized, one per line, when it does not fit. */
export function pyFromImport(module: string, names: Iterable<string>): string {
  const unique = sorted([...new Set(names)]);
  const flat = `from ${module} import ${unique.join(', ')}`;
  if (flat.length <= PY_LINE_LENGTH) return flat;
  return [`from ${module} import (`, ...unique.map((name) => `    ${name},`), ')'].join('\n');
}
