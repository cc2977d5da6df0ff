import { useState } from 'preact/hooks';
import { ApiError, get, useRead } from '../api';
import type { ExposurePolicy } from '../types';
import { Problem } from './problem';

/** The tenant's exposure policy (docs/exposure-policy.md) in words. */
export function policyWords({ maxActions, window }: ExposurePolicy): string {
  if (maxActions === null || window === null) return "No exposure policy: each campaign's own caps only.";
  const actions = `at most ${maxActions} action${maxActions === 1 ? '' : 's'} per user`;
  const span =
    'calendarDay' in window
      ? `per calendar day in ${window.calendarDay}`
      : `in the last ${window.value === 1 ? window.unit.replace(/s$/, '') : `${window.value} ${window.unit}`} (rolling)`;
  return `Exposure policy: ${actions} ${span}, across all campaigns; over it, a launch serves only exempt campaigns and test CTAs.`;
}

/** The policy as one line, read from `GET /exposure-policy` (role viewer). */
export function ExposurePolicyLine() {
  const [policy, setPolicy] = useState<ExposurePolicy | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useRead(
    () => get<ExposurePolicy>('exposure-policy'),
    [],
    (answer) => (setPolicy(answer), setError(null)),
    setError,
  );
  return (
    <>
      <Problem error={error} />
      {policy !== null && <p class="policy">{policyWords(policy)}</p>}
    </>
  );
}
