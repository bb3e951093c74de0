// Once for every consumer test file: the README's install block, run as a user runs it, in a
// folder outside the repository (packing, `npm init`, the ES module setting, the tarballs offline,
// the TypeScript tools from the registry), then its `tsconfig.json` and every TypeScript example
// of the README and the guide saved as `example-<n>.ts`. The tests only read and run them.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  createFolder,
  exampleFile,
  readmeExamples,
  readmeInstallSteps,
  readmeTsconfig,
  runStep,
  setUpReadmeProject,
  stepOf,
} from './helpers/scratch-project.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project the README's install block set up. */
    readmeProject: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await createFolder('readme');
  const steps = await readmeInstallSteps(folder);
  await runStep(stepOf(steps, 'bash')); // scripts/pack.sh: the tarballs land in the project
  await runStep(stepOf(steps, 'cp')); // the example image
  await setUpReadmeProject(steps);
  await writeFile(join(folder, 'tsconfig.json'), await readmeTsconfig());
  const examples = await readmeExamples('ts');
  await Promise.all(
    examples.map((source, index) => writeFile(join(folder, exampleFile(index)), source)),
  );
  project.provide('readmeProject', folder);
  return () => rm(folder, { recursive: true, force: true });
}
