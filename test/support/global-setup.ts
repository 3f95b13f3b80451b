import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

/** Builds the workflow bundle once per run; every test worker loads it instead of re-bundling. */
export default async function globalSetup(): Promise<void> {
  const runDir = process.env.TEST_RUN_DIR;
  if (!process.env.DATABASE_URL || !process.env.TEMPORAL_ADDRESS || !runDir) {
    throw new Error('Run the tests with `npm test`: it starts the PostgreSQL and Temporal server they need.');
  }
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} } as never,
  });
  fs.writeFileSync(path.join(runDir, 'workflow-bundle.js'), code);
}
