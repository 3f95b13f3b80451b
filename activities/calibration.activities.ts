import type { CalibrationOutcome } from '../src/feedback/calibration.contract';
import { calibrateSearch } from '../src/searches/calibration.service';
import type { ActivityDeps } from './deps';

export function calibrationActivities({ db, config }: ActivityDeps) {
  return {
    /** One calibration attempt of the `calibration-<searchId>` workflow (idempotent per requestId). */
    calibrateSearch: (input: { searchId: string; requestId: string }): Promise<CalibrationOutcome> =>
      calibrateSearch(db, { ...input, baseUrl: config.publicBaseUrl }),
  };
}
