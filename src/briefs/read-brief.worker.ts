/**
 * The brief reader's worker thread (src/briefs/brief-reader.ts runs it in a pool): reading a
 * job description is CPU work that must not run on the API's event loop.
 */
import { extractCriteria, type Extraction } from './reader';

export default function readBrief(text: string): Extraction {
  return extractCriteria(text);
}
