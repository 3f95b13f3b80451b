import type { z } from 'zod';
import type { membersAdded } from './shortlist.schemas';

/** An addition as the key API answers it: `already` is the count the spec names, the ids beside it. */
export const membersAddedResource = (r: { added: string[]; already: string[]; shortlisted: number }): z.input<typeof membersAdded> => ({
  added: r.added,
  already: r.already.length,
  already_listed: r.already,
  shortlisted: r.shortlisted,
});

export const shareUrl = (appUrl: string, token: string) => `${appUrl}/share/${token}`;
