import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { v1, v1Page, type Schemas } from '../api';
import { ErrorNotice } from '../ui';

/**
 * Feedback on the search page (DESIGN.md §13): "Good fit" / "Not a fit" on each person, with
 * optional reasons, and what the search learned from the ratings. Ratings go to the key API's
 * feedback route through the session; the search re-ranks itself a moment after the last one.
 */

type Verdict = Schemas['Rating']['verdict'];
type Reason = NonNullable<Schemas['Rating']['reasons']>[number];

const REASONS: { value: Reason; label: string }[] = [
  { value: 'title', label: 'Title' },
  { value: 'occupation', label: 'Occupation' },
  { value: 'location', label: 'Location' },
  { value: 'seniority', label: 'Seniority' },
  { value: 'years', label: 'Years' },
  { value: 'skills', label: 'Skills' },
  { value: 'industry', label: 'Industry' },
  { value: 'company', label: 'Company' },
];

/** The search's ratings by candidate, shared by every person of the page. */
export function useRatings(searchId: string) {
  return useQuery({
    queryKey: ['feedback', searchId],
    queryFn: async () => new Map((await v1Page<Schemas['StoredRating']>(`/searches/${searchId}/feedback`)).items.map((r) => [r.candidate_id, r])),
  });
}

/** The two verdict buttons of one person, and the reasons they may add. */
export function RateButtons({ searchId, person, rating }: { searchId: string; person: { id: string; name: string }; rating?: Schemas['StoredRating'] }) {
  const qc = useQueryClient();
  const [reasons, setReasons] = useState<Reason[]>(rating?.reasons ?? []);
  const rate = useMutation({
    mutationFn: (verdict: Verdict) =>
      v1<Schemas['FeedbackAccepted']>('POST', `/searches/${searchId}/feedback`, { ratings: [{ candidate_id: person.id, verdict, reasons }] }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['feedback', searchId] });
      // The search re-ranks a moment later: re-read it so its progress and people follow.
      void qc.invalidateQueries({ queryKey: ['search', searchId] });
    },
  });
  const button = (verdict: Verdict, label: string) => (
    <button
      type="button"
      aria-pressed={rating?.verdict === verdict}
      disabled={rate.isPending}
      onClick={() => rate.mutate(verdict)}
      aria-label={`${label}: ${person.name}`}
    >
      {label}
    </button>
  );
  return (
    <span className="rate" data-testid="rate-person">
      {button('good', 'Good fit')}
      {button('bad', 'Not a fit')}
      <details className="inline">
        <summary>Reasons{reasons.length ? ` (${reasons.length})` : ''}</summary>
        <fieldset>
          <legend>What the verdict is about</legend>
          {REASONS.map((r) => (
            <label key={r.value}>
              <input
                type="checkbox"
                checked={reasons.includes(r.value)}
                onChange={(e) => setReasons(e.target.checked ? [...reasons, r.value] : reasons.filter((x) => x !== r.value))}
              />
              {r.label}
            </label>
          ))}
        </fieldset>
      </details>
      {rate.isError && <ErrorNotice error={rate.error} />}
    </span>
  );
}

const values = (list: Schemas['LearnedValue'][]) => list.map((v) => `${v.value} (${v.kind.replace('_', ' ')})`).join(', ');

/** What the search learned from its ratings: how much it moves the scores, and the values behind it. */
export function CalibrationSummary({ calibration }: { calibration: Schemas['Search']['calibration'] }) {
  if (!calibration) return null;
  const weights = Object.entries(calibration.weights).map(([name, m]) => `${name} ×${m}`);
  return (
    <section aria-labelledby="calibration-h" data-testid="calibration">
      <h2 id="calibration-h">Learned from your ratings</h2>
      <p>
        {calibration.ratings} rated ({calibration.good} good fit, {calibration.bad} not a fit); ratings now weigh {Math.round(calibration.share * 100)}% of each
        score.
      </p>
      {calibration.preferred.length > 0 && <p>More like: {values(calibration.preferred)}</p>}
      {calibration.avoided.length > 0 && <p>Fewer like: {values(calibration.avoided)}</p>}
      {weights.length > 0 && <p>Criteria re-weighted: {weights.join(', ')}</p>}
    </section>
  );
}
