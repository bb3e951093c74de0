// The in-process steps of one protocol (its generated files, its breaking check) are skipped, with
// the reason, when they passed on exactly the inputs they have now: an edit to one protocol's IDL
// then checks that protocol only. The inputs are every file the steps read (the IDL and its
// settings, the released versions, the vectors, the generated files, the generator's sources) and
// the versions of the tools that format the output.
import { version as PRETTIER_VERSION } from 'prettier';
import { DMCG_VERSION } from '../emit/py-models.js';
import type { LoadedProtocol } from '../protocols/load-protocol.js';
import { generatedLocations } from '../protocols/targets.js';
import type { StepInputs } from './passes.js';
import { findPass, fingerprint, recordPass } from './passes.js';
import type { StepResult } from './step.js';
import { skippedStep } from './step.js';

function protocolInputs({ location, targets }: LoadedProtocol): StepInputs {
  const { folders, files } = generatedLocations(targets);
  const settings = [location.idlPath, location.targetsPath, location.importPath];
  return {
    paths: [
      ...settings.filter((path): path is string => path !== null),
      targets.releases.dir,
      targets.releases.allowList,
      ...(targets.vectors ? [targets.vectors] : []),
      ...folders,
      ...files,
      'codegen/src',
      'codegen/package.json',
      'package.json',
      'node_modules/.pnpm/lock.yaml',
    ],
    facts: [`node ${process.version}`, `prettier ${PRETTIER_VERSION}`, `dmcg ${DMCG_VERSION}`],
  };
}

/** Runs `step` unless it passed on exactly these inputs; records a pass. */
export async function unlessPassed(
  root: string,
  protocol: LoadedProtocol,
  name: string,
  step: () => Promise<StepResult> | StepResult,
): Promise<StepResult> {
  const started = performance.now();
  const key = fingerprint(root, `${name}\0${protocol.location.idlPath}`, protocolInputs(protocol));
  const pass = findPass(key);
  if (pass) {
    const at = new Date(pass.at).toLocaleTimeString('en-GB');
    const reason = `it passed at ${at} on exactly these inputs (${pass.summary}); --full runs it`;
    return skippedStep(name, started, reason, 'inputs unchanged since it passed');
  }
  const result = await step();
  if (result.verdict === 'passed')
    recordPass(key, { step: name, at: new Date().toISOString(), summary: result.summary });
  return result;
}
