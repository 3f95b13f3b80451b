import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadCorpus } from '../../src/corpus/loader';
import { createDb } from '../../src/db/knex';

/** People in the test database: enough for multi-page searches, quick to load (half of them of the role families). */
export const TEST_CORPUS = { size: 12_000, seed: 7 };

/** Builds the workflow bundle once per run and loads the test corpus once. */
export default async function globalSetup(): Promise<void> {
  const runDir = process.env.TEST_RUN_DIR;
  if (!process.env.DATABASE_URL || !process.env.TEMPORAL_ADDRESS || !runDir) {
    throw new Error('Run the tests with `npm test`: it starts the PostgreSQL and Temporal server they need.');
  }
  const db = createDb(process.env.DATABASE_URL, 4);
  try {
    const [{ code }] = await Promise.all([
      bundleWorkflowCode({
        workflowsPath: require.resolve('../../workflows'),
        logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
      }),
      loadCorpus(db, TEST_CORPUS),
    ]);
    fs.writeFileSync(path.join(runDir, 'workflow-bundle.js'), code);
  } finally {
    await db.destroy();
  }
}
