// Run a protocol's emitters in memory and format the results; the same text is written or compared.
import { FormatPool } from './printer/format-pool.js';
import type { OutputFile } from './printer/generated-file.js';
import type { LoadedProtocol } from './protocols/load-protocol.js';
import { listReleasedVersions } from './release/released-files.js';
import { buildSchemaBundle } from './schema/bundle.js';
import { runsFor } from './emit/emitter.js';
import { EMITTERS } from './emit/registry.js';

/**
 * Every output of one protocol: the emitters of the targets it has, in registry order, each file
 * formatted by `pool` as soon as it is emitted (a pool of its own when none is given).
 */
export async function renderProtocol(
  { model, targets }: LoadedProtocol,
  root: string,
  pool?: FormatPool,
): Promise<OutputFile[]> {
  const own = pool ?? new FormatPool(root);
  try {
    const bundle = buildSchemaBundle(model, targets.schemaId);
    const releases = listReleasedVersions(root, targets.releases.dir);
    const format = (text: string, language: OutputFile['language']) =>
      own.formatText(text, language);
    const context = { model, bundle, releases, target: targets, format };
    const emitters = EMITTERS.filter((emitter) => runsFor(targets, emitter));
    // Started together: an emitter waiting on a child process (py-models) lets the others run.
    const formatted = emitters.map(async (emitter) =>
      Promise.all((await emitter.emit(context)).map((output) => own.format(output))),
    );
    return (await Promise.all(formatted)).flat();
  } finally {
    if (!pool) await own.close();
  }
}
