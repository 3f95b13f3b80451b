import { ScheduleAlreadyRunning, type Client, type ScheduleOptions } from '@temporalio/client';

/** Creates a Schedule unless one with its id exists already: every worker start ensures its sweeps. */
export async function ensureSchedule(client: Client, options: ScheduleOptions): Promise<void> {
  try {
    await client.schedule.create(options);
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
