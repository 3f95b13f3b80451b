import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { v1, type Schemas } from '../api';
import { useCan } from '../layout';
import { ErrorNotice, Loading, PageTitle, when } from '../ui';

export function BillingPage() {
  const qc = useQueryClient();
  const canBuy = useCan('admin');
  const balance = useQuery({ queryKey: ['balance'], queryFn: () => v1<Schemas['Balance']>('GET', '/billing/balance') });
  const topUps = useQuery({
    queryKey: ['top-ups'],
    queryFn: () => v1<Schemas['TopUp'][]>('GET', '/billing/top-ups'),
    // An open checkout may be paid in another tab: watch it, and the balance with it.
    refetchInterval: (q) => (q.state.data?.some((t) => t.status === 'open') ? 3_000 : false),
  });
  const ledger = useQuery({ queryKey: ['ledger'], queryFn: () => v1<Schemas['LedgerEntry'][]>('GET', '/billing/ledger') });
  const paidCount = topUps.data?.filter((t) => t.status === 'paid').length;
  const [seenPaid, setSeenPaid] = useState<number | undefined>(undefined);
  if (paidCount !== undefined && paidCount !== seenPaid) {
    setSeenPaid(paidCount);
    if (seenPaid !== undefined) void Promise.all([qc.invalidateQueries({ queryKey: ['balance'] }), qc.invalidateQueries({ queryKey: ['ledger'] })]);
  }
  return (
    <>
      <PageTitle>Billing</PageTitle>
      <section aria-labelledby="balance-h">
        <h2 id="balance-h">Balance</h2>
        {balance.isPending ? (
          <Loading what="the balance" />
        ) : balance.isError ? (
          <ErrorNotice error={balance.error} retry={() => void balance.refetch()} />
        ) : (
          <p>
            <strong data-testid="balance">{balance.data.credits}</strong> shortlist credits · plan {balance.data.plan.name ?? 'none'}
            {balance.data.plan.usd_per_credit !== null && <> · ${balance.data.plan.usd_per_credit.toFixed(2)} per credit</>}
          </p>
        )}
        {canBuy && <TopUp />}
      </section>
      <section aria-labelledby="topups-h">
        <h2 id="topups-h">Top-ups</h2>
        {topUps.isError ? (
          <ErrorNotice error={topUps.error} />
        ) : (
          <ul className="cards" aria-label="Top-ups">
            {(topUps.data ?? []).map((t) => (
              <li key={t.id}>
                ${t.amount_usd} → {t.shortlists} credits · <span className={t.status === 'paid' ? 'ok' : 'muted'}>{t.status}</span> · {when(t.created_at)}
                {t.status === 'open' && (
                  <>
                    {' '}
                    · <a href={t.url}>Pay</a>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="ledger-h">
        <h2 id="ledger-h">Ledger</h2>
        {ledger.isPending ? (
          <Loading what="the ledger" />
        ) : ledger.isError ? (
          <ErrorNotice error={ledger.error} retry={() => void ledger.refetch()} />
        ) : (
          <table>
            <caption className="sr-only">Credit ledger, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Change</th>
                <th scope="col">Reason</th>
                <th scope="col">Bucket</th>
              </tr>
            </thead>
            <tbody>
              {ledger.data.map((e) => (
                <tr key={e.id}>
                  <td>{when(e.created_at)}</td>
                  <td className={e.delta >= 0 ? 'ok' : 'warn'}>{e.delta > 0 ? `+${e.delta}` : e.delta}</td>
                  <td>{e.reason}</td>
                  <td>{e.bucket}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function TopUp() {
  const qc = useQueryClient();
  const [amount, setAmount] = useState('50');
  const create = useMutation({
    mutationFn: () => v1<Schemas['TopUpCheckout']>('POST', '/billing/top-up', { amount_usd: Number(amount) }),
    onSuccess: async (checkout) => {
      await qc.invalidateQueries({ queryKey: ['top-ups'] });
      // The checkout is the payment provider's page: go there; it links back here once paid.
      window.location.assign(checkout.url);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <form className="inline" onSubmit={submit}>
      <label>
        Top-up amount (USD)
        <input type="number" min={1} step={1} required value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <button type="submit" disabled={create.isPending}>
        Buy credits
      </button>
      {create.isError && <ErrorNotice error={create.error} />}
    </form>
  );
}
