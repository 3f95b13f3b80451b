import type { SharedShortlist } from '../../src/shortlist/share.service';
import { linkableUrl } from '../../src/domain/urls';
import { escapeHtml, pageSecurityHeaders } from './html';

export const SHARE_PAGE_STYLE = `
body{font:16px/1.5 system-ui,-apple-system,sans-serif;max-width:56rem;margin:2.5rem auto;padding:0 1rem;color:#1d2430;background:#fafbfc}
h1{margin:0 0 .2rem;font-size:1.6rem} .count{color:#566275;margin:0 0 1.5rem}
ol{list-style:none;padding:0;margin:0} li{background:#fff;border:1px solid #e3e8ee;border-radius:8px;padding:.9rem 1.1rem;margin:.6rem 0;display:flex;gap:1rem;align-items:center}
.score{font:700 1.2rem/1 system-ui;min-width:3.2rem;text-align:center;color:#1f6f43;background:#e6f4ec;border-radius:6px;padding:.5rem .3rem}
.who{flex:1} .name{font-weight:600} .meta{color:#566275;font-size:.92rem}
a{color:#2451b3} .empty{background:#fff;border:1px dashed #c9d2dc;border-radius:8px;padding:2rem;text-align:center;color:#566275}
footer{margin-top:2rem;color:#8a94a3;font-size:.8rem}`;

export const SHARE_PAGE_HEADERS = pageSecurityHeaders(SHARE_PAGE_STYLE);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title><style>${SHARE_PAGE_STYLE}</style></head>
<body>${body}</body></html>`;
}

/** A link to the person's profile when its address is http(s); nothing otherwise. */
function profileLink(networkUrl: string | null | undefined): string {
  const href = linkableUrl(networkUrl);
  return href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow" target="_blank">Profile</a>` : '';
}

/** The public shortlist page: live, readable, no sign-in. */
export function renderSharePage(share: SharedShortlist): string {
  const items = share.members
    .map(
      (m) => `<li data-candidate-id="${escapeHtml(m.candidate_id)}">
  <div class="score" title="Match score">${m.score ?? '–'}</div>
  <div class="who"><div class="name">${escapeHtml(m.name)}</div>
  <div class="meta">${escapeHtml([m.title, m.company].filter(Boolean).join(' · '))}</div>
  <div class="meta">${escapeHtml(m.location)}</div></div>
  ${profileLink(m.network_url)}
</li>`,
    )
    .join('\n');
  const people = `${share.shortlisted} ${share.shortlisted === 1 ? 'person' : 'people'}`;
  return page(
    `${share.project_name} — shortlist`,
    `<h1>${escapeHtml(share.project_name)}</h1>
<p class="count">Shortlist · <span id="count">${people}</span></p>
${share.members.length ? `<ol id="members">${items}</ol>` : '<div class="empty" id="empty">No one is on this shortlist yet. Check back later: this page always shows the current list.</div>'}
<footer>Shared privately. This page shows the live shortlist; anyone with the link can open it.</footer>`,
  );
}

export function renderShareErrorPage(status: 404 | 410): string {
  return status === 410
    ? page('Link expired', '<h1>This link has expired</h1><p class="count">Ask the person who shared it for a new one.</p>')
    : page('Link not found', '<h1>This link is not valid</h1><p class="count">Check that you copied the whole address.</p>');
}
