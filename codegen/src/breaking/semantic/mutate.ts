// Neighbours of a sample: one member dropped or one value replaced by an edge value. Faker rarely
// lands on a boundary (an empty string, a zero, a missing member); these do, deterministically.

const EDGE_VALUES: readonly unknown[] = [null, '', 'x', 0, -1, 1.5, 2 ** 53, true, {}, []];

/** Up to `limit` neighbours of `value`, each differing in one place. */
export function neighbours(value: unknown, limit: number): unknown[] {
  const out: unknown[] = [];
  const visit = (
    node: unknown,
    replace: (v: unknown) => unknown,
    remove: (() => unknown) | null,
    depth: number,
  ) => {
    if (out.length >= limit || depth > 8) return;
    if (remove) out.push(remove());
    for (const edge of EDGE_VALUES)
      if (JSON.stringify(edge) !== JSON.stringify(node)) out.push(replace(edge));
    if (typeof node === 'string' && node.length > 0) out.push(replace(`${node}é`));
    if (Array.isArray(node)) {
      if (node.length > 0) out.push(replace([...node, node[0]]));
      node.forEach((item, i) =>
        visit(
          item,
          (v) => replace(node.map((x, k) => (k === i ? v : x))),
          () => replace(node.filter((_, k) => k !== i)),
          depth + 1,
        ),
      );
    } else if (typeof node === 'object' && node !== null) {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const without = () =>
          replace(Object.fromEntries(Object.entries(record).filter(([k]) => k !== key)));
        visit(record[key], (v) => replace({ ...record, [key]: v }), without, depth + 1);
      }
    }
  };
  visit(value, (v) => v, null, 0);
  return out.slice(0, limit);
}
