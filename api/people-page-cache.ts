import type { SearchRow } from '../src/db/search.repository';
import { encodeData } from './respond';
import { ResponseCache } from './response-cache';

/** People pages of completed searches, by search version (see the searches_touch migration). */
const peoplePages = new ResponseCache(64 * 1024 * 1024);

export interface PeoplePageQuery {
  minScore: number | undefined;
  limit: number;
  offset: number;
  withProfile: boolean;
}

/**
 * A people page as `encodeData` begins it. A completed search's pages only change with a new
 * version (a pass, a re-score), so theirs are kept by version and query; a running search's page
 * is built (`build`: the data's JSON) every time.
 */
export async function peoplePageBody(
  searchId: string,
  version: Pick<SearchRow, 'status' | 'updated_at'>,
  query: PeoplePageQuery,
  build: () => Promise<string>,
): Promise<Buffer> {
  const cacheable = version.status === 'complete';
  const key = `${searchId}|${version.updated_at.toISOString()}|${query.minScore}|${query.limit}|${query.offset}|${query.withProfile}`;
  let data = cacheable ? peoplePages.get(key) : undefined;
  if (data === undefined) {
    data = encodeData(await build());
    if (cacheable) peoplePages.set(key, data);
  }
  return data;
}
