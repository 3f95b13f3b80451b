import type { Db } from '../db/knex';
import { projectRepository } from '../db/project.repository';
import { shortlistMembers } from './shortlist.service';

export interface SharedShortlist {
  project_name: string;
  shortlisted: number;
  members: {
    candidate_id: string;
    name: string;
    title: string;
    company: string;
    location: string;
    network_url: string;
    score: number | null;
    added_at: string;
  }[];
}

export type ShareLookup = { status: 'ok'; share: SharedShortlist } | { status: 'not_found' } | { status: 'expired' };

/**
 * What a share link shows, always the live list. The token is the credential: no other ids than
 * candidate ids leave through it.
 */
export async function readShare(db: Db, token: string): Promise<ShareLookup> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return { status: 'not_found' };
  const project = await projectRepository(db).findByShareToken(token);
  if (!project) return { status: 'not_found' };
  if (project.share_expires_at && new Date(project.share_expires_at).getTime() <= Date.now()) return { status: 'expired' };
  const members = await shortlistMembers(db, project.id);
  return {
    status: 'ok',
    share: {
      project_name: project.name,
      shortlisted: members.length,
      members: members.map(({ candidate_id, name, title, company, location, network_url, score, added_at }) => ({
        candidate_id,
        name,
        title,
        company,
        location,
        network_url,
        score,
        added_at,
      })),
    },
  };
}
