import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiError } from './api';

/** What people expect from each failure: sign in again, a read-only notice, the message, or a retry. */
export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  const qc = useQueryClient();
  if (!(error instanceof ApiError)) return <p role="alert">Something went wrong: {String((error as Error)?.message ?? error)}</p>;
  if (error.signedOut) {
    return (
      <p role="alert">
        Your session has ended.{' '}
        <button type="button" onClick={() => void qc.invalidateQueries({ queryKey: ['me'] })}>
          Sign in again
        </button>
      </p>
    );
  }
  if (error.frozen) {
    return (
      <p role="alert" className="notice frozen-notice">
        This workspace is frozen: it is read-only and its data cannot be opened until it is unfrozen. Contact your administrator or support.
      </p>
    );
  }
  if (error.status >= 500 || error.status === 0) {
    return (
      <p role="alert" className="notice error">
        {error.message}{' '}
        {retry && (
          <button type="button" onClick={retry}>
            Retry
          </button>
        )}
      </p>
    );
  }
  return (
    <p role="alert" className="notice error">
      {error.message}
    </p>
  );
}

/** A page's heading takes focus when the page opens, so screen readers and keyboards start there. */
export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

export const Loading = ({ what }: { what: string }) => (
  <p aria-live="polite" className="muted">
    Loading {what}…
  </p>
);

export const BackLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <p>
    <Link to={to}>← {children}</Link>
  </p>
);

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * Where a person is, as text. Profiles hold `{name, locality, region, country, lat, lon}`; older
 * profiles and result summaries a string. Either way, the name people read ("Leeds, England, United Kingdom").
 */
export function placeText(location: unknown): string {
  if (typeof location === 'string') return location.trim();
  if (!location || typeof location !== 'object') return '';
  const l = location as Record<string, unknown>;
  if (typeof l.name === 'string' && l.name.trim() !== '') return l.name.trim();
  return [l.locality, l.region, l.country].filter((x): x is string => typeof x === 'string' && x.trim() !== '').join(', ');
}
