// The printer's import tracking: a symbol used is a symbol imported, and nothing else is.
import { describe, expect, it } from 'vitest';
import { GeneratedFile } from '../src/printer/generated-file.js';
import { rootTargets } from './helpers/fixture-protocol.js';

describe('GeneratedFile imports, TypeScript', () => {
  it('imports exactly the names printed, values and types apart, modules in order', () => {
    const f = new GeneratedFile('x.gen.ts', 'test', 'ts', rootTargets());
    f.print`export const a: ${f.importType('Ping', './types.gen.js')} = ${f.import('make', '../make.js')}();`;
    f.print`export type B = ${f.importType('Pong', './types.gen.js')} | ${f.importType('Ping', './types.gen.js')};`;
    const lines = f.finish().content.split('\n');
    expect(lines.slice(3, 6)).toEqual([
      "import { make } from '../make.js';",
      "import type { Ping, Pong } from './types.gen.js';",
      '',
    ]);
  });

  it('imports a name used both as a value and as a type as a value only', () => {
    const f = new GeneratedFile('x.gen.ts', 'test', 'ts', rootTargets());
    f.print`let m: ${f.importType('Method', './methods.gen.js')} = ${f.import('Method', './methods.gen.js')};`;
    expect(f.finish().content).toContain("import { Method } from './methods.gen.js';\n");
    expect(f.finish().content).not.toContain('import type');
  });

  it('prints no import block for a file that imports nothing', () => {
    const f = new GeneratedFile('x.gen.ts', 'test', 'ts', rootTargets());
    f.print`export const x = 1;`;
    expect(f.finish().content.split('\n').slice(2)).toEqual(['', 'export const x = 1;', '']);
  });
});

describe('GeneratedFile imports, Python', () => {
  it("prints isort's sections after the module docstring: __future__, standard library, the package", () => {
    const f = new GeneratedFile('x.py', 'test', 'py', rootTargets());
    f.preamble('"""A module."""');
    f.import('annotations', '__future__');
    f.print`class A(${f.import('WireObject', 'dsh_sdk.wire_object')}):`;
    f.print`    x: ${f.import('Final', 'typing')}[${f.import('Mapping', 'collections.abc')}[str, int]]`;
    f.print`    y = ${f.importModule('re')}.compile("a")`;
    f.print`    z = ${f.import('models', 'dsh_sdk._gen', { as: 'm' })}.A`;
    expect(f.finish().content.split('\n').slice(2)).toEqual([
      '"""A module."""',
      '',
      'from __future__ import annotations',
      '',
      'import re',
      'from collections.abc import Mapping',
      'from typing import Final',
      '',
      'from dsh_sdk._gen import models as m',
      'from dsh_sdk.wire_object import WireObject',
      '',
      '',
      'class A(WireObject):',
      '    x: Final[Mapping[str, int]]',
      '    y = re.compile("a")',
      '    z = m.A',
      '',
    ]);
  });

  it('wraps a long from-import one name per line, as ruff format does', () => {
    const f = new GeneratedFile('x.py', 'test', 'py', rootTargets());
    const names = Array.from({ length: 12 }, (_, i) => f.import(`Name${i}`, 'dsh_sdk._gen.models'));
    f.print`ALL = (${names.join(', ')})`;
    const lines = f.finish().content.split('\n');
    expect(lines[2]).toBe('from dsh_sdk._gen.models import (');
    expect(lines[3]).toBe('    Name0,');
    expect(lines).toContain(')');
  });
});
