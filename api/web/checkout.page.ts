import type { TopUpRow } from '../../src/db/top-up.repository';
import { escapeHtml, pageSecurityHeaders } from './html';

export const CHECKOUT_PAGE_STYLE = `
body{font:16px/1.5 system-ui,-apple-system,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1d2430;background:#fafbfc}
.card{background:#fff;border:1px solid #e3e8ee;border-radius:10px;padding:1.5rem 1.75rem}
h1{margin:0 0 1rem;font-size:1.4rem} .badge{display:inline-block;font-size:.75rem;font-weight:700;letter-spacing:.04em;color:#8a5a00;background:#fff4d6;border-radius:4px;padding:.15rem .45rem;margin-bottom:.8rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.35rem 1rem;margin:0 0 1.4rem} dt{color:#566275} dd{margin:0;font-weight:600}
button{font:600 1rem system-ui;color:#fff;background:#2451b3;border:0;border-radius:6px;padding:.7rem 1.2rem;cursor:pointer;width:100%}
.note{color:#566275;font-size:.9rem;margin:1rem 0 0} .ok{color:#1f6f43} .bad{color:#a3261b}`;

/** Our own pages' headers, except that this page's one form may post back to this origin. */
export const CHECKOUT_PAGE_HEADERS: Record<string, string> = (() => {
  const headers = pageSecurityHeaders(CHECKOUT_PAGE_STYLE);
  return {
    ...headers,
    'Content-Security-Policy': headers['Content-Security-Policy'].replace("form-action 'none'", "form-action 'self'"),
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex, nofollow',
  };
})();

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title><style>${CHECKOUT_PAGE_STYLE}</style></head>
<body><main class="card">${body}</main></body></html>`;
}

const usd = (amount: string) => `$${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function summary(t: TopUpRow): string {
  return `<dl>
<dt>Amount</dt><dd id="amount">${usd(t.amount_usd)}</dd>
<dt>Credits</dt><dd id="credits">${t.shortlists} shortlist credits</dd>
<dt>Rate</dt><dd>${usd(t.usd_per_credit)} per credit (${escapeHtml(t.plan)} plan)</dd>
</dl>`;
}

/** The test provider's checkout page: what the top-up buys and a button that records the payment. */
export function renderCheckoutPage(t: TopUpRow, token: string): string {
  if (t.status === 'paid') return renderPaidPage(t, true);
  return page(
    'Checkout (test mode)',
    `<span class="badge">TEST MODE</span><h1>Buy shortlist credits</h1>${summary(t)}
<form method="post" action="/checkout/${escapeHtml(encodeURIComponent(token))}/pay"><button type="submit" id="pay">Pay (test mode)</button></form>
<p class="note">Test mode: no money moves. Paying adds the credits to your workspace once. This checkout expires at ${escapeHtml(t.expires_at.toISOString())}.</p>`,
  );
}

/** After payment; `again` when this top-up had been paid before (nothing more is granted). */
export function renderPaidPage(t: TopUpRow, again: boolean): string {
  const credits = `${t.shortlists} shortlist credits`;
  const state = again
    ? `<p class="ok" id="status">This top-up is already paid. ${credits} were added once; nothing was charged or added again.</p>`
    : t.granted_at
      ? `<p class="ok" id="status">Payment received: ${credits} were added to your balance.</p>`
      : `<p class="ok" id="status">Payment received: ${credits} will be added to your balance in a moment.</p>`;
  return page(
    again ? 'Already paid' : 'Payment received',
    `<span class="badge">TEST MODE</span><h1>${again ? 'Already paid' : 'Thank you'}</h1>${summary(t)}${state}`,
  );
}

export function renderCheckoutErrorPage(status: 404 | 410): string {
  return status === 410
    ? page(
        'Checkout expired',
        '<h1 class="bad">This checkout has expired</h1><p class="note" id="status">Nothing was charged. Start a new top-up to buy credits.</p>',
      )
    : page(
        'Checkout not found',
        '<h1 class="bad">This checkout link is not valid</h1><p class="note" id="status">Check that you copied the whole address.</p>',
      );
}
