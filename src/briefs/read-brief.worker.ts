/**
 * The brief reader's worker thread (src/briefs/brief-reader.ts runs it in a pool): reading a
 * job description is CPU work that must not run on the API's event loop.
 */
import { extractCriteria, warmReader, type Extraction } from './reader';

// The reference data loads as the thread starts, not within the first brief's time budget.
warmReader();

export default function readBrief(text: string): Extraction {
  return extractCriteria(text);
}
