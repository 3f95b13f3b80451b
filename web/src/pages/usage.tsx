import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { v1, type Schemas } from '../api';
import { ErrorNotice, Loading, PageTitle } from '../ui';

export function UsagePage() {
  const usage = useQuery({ queryKey: ['usage'], queryFn: () => v1<Schemas['UsageReport']>('GET', '/usage') });
  if (usage.isPending) return <Loading what="usage" />;
  if (usage.isError) return <ErrorNotice error={usage.error} retry={() => void usage.refetch()} />;
  const u = usage.data;
  return (
    <>
      <PageTitle>Usage</PageTitle>
      <p className="muted">
        {u.period.from.slice(0, 10)} to {u.period.to.slice(0, 10)}
      </p>
      <dl className="stats">
        <div>
          <dt>API requests</dt>
          <dd data-testid="usage-requests">{u.requests.total}</dd>
        </div>
        <div>
          <dt>Credits used</dt>
          <dd>{u.credits.used}</dd>
        </div>
        <div>
          <dt>Credits refunded</dt>
          <dd>{u.credits.refunded}</dd>
        </div>
        <div>
          <dt>Searches launched</dt>
          <dd>{u.searches.launched}</dd>
        </div>
        <div>
          <dt>Cost (USD)</dt>
          <dd>{u.usd.total.toFixed(2)}</dd>
        </div>
      </dl>
      <UsageChart days={u.by_day} />
      <table>
        <caption>Per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Requests</th>
            <th scope="col">Credits used</th>
          </tr>
        </thead>
        <tbody>
          {u.by_day.map((d) => (
            <tr key={d.date}>
              <td>{d.date}</td>
              <td>{d.requests}</td>
              <td>{d.credits_used}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Credits and requests per day (uPlot draws on a canvas; the table above carries the same figures for screen readers). */
function UsageChart({ days }: { days: Schemas['UsageReport']['by_day'] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const data: uPlot.AlignedData = [days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000), days.map((d) => d.credits_used), days.map((d) => d.requests)];
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        series: [
          {},
          { label: 'Credits used', stroke: '#b45309', width: 2, scale: 'credits' },
          { label: 'Requests', stroke: '#1d4ed8', width: 2, scale: 'requests' },
        ],
        axes: [{}, { scale: 'credits', label: 'Credits' }, { scale: 'requests', label: 'Requests', side: 1, grid: { show: false } }],
        scales: { x: { time: true } },
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);
  return <div ref={box} className="chart" role="img" aria-label="Chart of credits used and requests per day" data-testid="usage-chart" />;
}
