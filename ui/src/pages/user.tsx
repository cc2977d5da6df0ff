import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, remove, useRead } from '../api';
import { Problem } from '../parts/problem';
import { Time } from '../time';
import type { CtaExplanation, DeviceView, LaunchExplanation, Reason, Whoami } from '../types';

/** What the device will make of a served CTA, in words ("lifetime cap reached: 5 of 5"). */
function deviceWords(device: DeviceView): string[] {
  const machines = Object.entries(device.machines);
  return [
    machines.length === 0
      ? 'no journey started yet'
      : `${machines.length} journey${machines.length === 1 ? '' : 's'}: ${machines.map(([machine, state]) => `${machine} in state ${state}`).join(', ')}`,
    `lifetime cap ${device.lifespan.reached ? 'reached' : 'not reached'}: ${device.lifespan.count} of ${device.lifespan.limit}`,
    `window cap ${device.window.reached ? 'reached' : 'not reached'}: ${device.window.count} of ${device.window.limit}`,
    ...(device.tag === null
      ? []
      : [
          device.tag.blocked
            ? `held back by its behaviour tag (${device.tag.relation}) while CTA ${device.tag.by.join(', ')} is active`
            : 'its behaviour tag does not hold it back',
        ]),
    ...(device.expiredMachines > 0
      ? [`${device.expiredMachines} expired journey${device.expiredMachines === 1 ? '' : 's'} dropped at this launch`]
      : []),
  ];
}

/** When the user is at the exposure policy's cap: the count against the limit, when a slot frees, and the campaigns only the cap withholds. */
function CapNotice({ ctas }: { ctas: CtaExplanation[] }) {
  const isCap = (reason: Reason): boolean => reason.code === 'EXPOSURE_CAP_REACHED';
  const cap = ctas.flatMap((cta) => cta.reasons).find(isCap);
  if (cap?.freesAt === undefined) return null;
  const withheld = ctas.filter((cta) => cta.reasons.every(isCap)).length;
  return (
    <p role="status" class="capped">
      The exposure policy's cap is reached: the user acted {cap.count} times in its window, at most {cap.limit} allowed. Until a slot frees
      at <Time ms={Date.parse(cap.freesAt)} />, only exempt campaigns and test CTAs are served
      {withheld > 0 && `: ${withheld} campaign${withheld === 1 ? ' is' : 's are'} withheld that would be served otherwise`}.
    </p>
  );
}

/** Not served first (the question is usually "why not?"), then served ones the device will not act on. */
const held = (cta: CtaExplanation): boolean =>
  !cta.served || (cta.device !== null && (cta.device.lifespan.reached || cta.device.window.reached || cta.device.tag?.blocked === true));

function Explanation({ cta }: { cta: CtaExplanation }) {
  return (
    <li class={cta.served ? 'served' : 'not-served'} data-cta-id={cta.ctaId}>
      <p>
        <strong>{cta.served ? 'Served' : 'Not served'}</strong>:{' '}
        <a href={`#/campaigns/${cta.ctaId}`}>{cta.name ?? `test CTA ${cta.ctaId}`}</a>{' '}
        <span class={`status status-${cta.ctaStatus}`}>{cta.ctaStatus}</span>
      </p>
      <ul class="reasons">
        {cta.reasons.map((reason) => (
          <li data-code={reason.code}>{reason.message}</li>
        ))}
      </ul>
      {cta.device !== null && (
        <ul class="device">
          {deviceWords(cta.device).map((words) => (
            <li>{words}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function download(name: string, data: unknown): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function Erase({ userId, onErased }: { userId: string; onErased: (counts: Record<string, unknown>) => void }) {
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  if (!asking) {
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        Erase this user's data…
      </button>
    );
  }
  return (
    <form
      class="confirm"
      onSubmit={(event) => {
        event.preventDefault();
        remove<Record<string, unknown>>(`app-users/${encodeURIComponent(userId)}`).then(
          (counts) => (setAsking(false), onErased(counts)),
          setError,
        );
      }}
    >
      <label>
        Erasing is final. Type the user id <code>{userId}</code> to confirm
        <input type="text" value={typed} autoFocus onInput={(e) => setTyped(e.currentTarget.value)} />
      </label>
      <button type="submit" class="danger" disabled={typed !== userId}>
        Erase for good
      </button>
      <button type="button" onClick={() => (setAsking(false), setTyped(''))}>
        Cancel
      </button>
      <Problem error={error} />
    </form>
  );
}

export function UserPage({ userId, me }: { userId: string | undefined; me: Whoami }) {
  const [typed, setTyped] = useState(userId ?? '');
  const [answer, setAnswer] = useState<LaunchExplanation | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [erased, setErased] = useState<Record<string, unknown> | null>(null);
  const [version, setVersion] = useState(0);
  /** `all=true`: every CTA of the tenant, drafts and ended ones too, not only those a launch looks at. */
  const [every, setEvery] = useState(false);
  useEffect(() => setErased(null), [userId]);
  useRead(
    () => {
      setAnswer(null);
      if (userId === undefined) return Promise.resolve(null);
      setTyped(userId);
      return get<LaunchExplanation>(`app-users/${encodeURIComponent(userId)}/launch`, { all: every ? 'true' : undefined });
    },
    [userId, version, every],
    (explained) => explained !== null && (setAnswer(explained), setError(null)),
    setError,
  );

  const ctas = answer === null ? [] : [...answer.ctas].sort((a, b) => Number(held(b)) - Number(held(a)));
  return (
    <>
      <h1>A user</h1>
      <form
        class="filters"
        role="search"
        onSubmit={(event) => (event.preventDefault(), (location.hash = `#/users/${encodeURIComponent(typed.trim())}`))}
      >
        <label>
          App user id
          <input type="text" inputMode="numeric" required value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
        </label>
        <label class="inline">
          <input type="checkbox" checked={every} onChange={(e) => setEvery(e.currentTarget.checked)} /> every CTA of the tenant (drafts and
          ended ones too)
        </label>
        <button type="submit">Explain</button>
      </form>
      <Problem error={error} />
      {erased !== null && (
        <p role="status" class="done">
          Erased:{' '}
          {Object.entries(erased)
            .map(([what, count]) => `${what} ${String(count)}`)
            .join(', ')}
        </p>
      )}
      {answer !== null && userId !== undefined && (
        <>
          <h2>What user {answer.userId} gets at launch, and why</h2>
          <p>Cohorts: {answer.cohorts.join(', ') || 'none'}</p>
          <CapNotice ctas={answer.ctas} />
          {ctas.length === 0 ? (
            <p>No live, scheduled or paused CTA, and no test CTA for this user.</p>
          ) : (
            <ul class="explanations">
              {ctas.map((cta) => (
                <Explanation cta={cta} />
              ))}
            </ul>
          )}
          <div class="actions">
            {me.may.exportUser && (
              <button
                type="button"
                onClick={() =>
                  get(`app-users/${encodeURIComponent(userId)}`).then((data) => download(`app-user-${userId}.json`, data), setError)
                }
              >
                Export as JSON
              </button>
            )}
            {me.may.eraseUser && <Erase userId={userId} onErased={(counts) => (setErased(counts), setVersion(version + 1))} />}
          </div>
          <details>
            <summary>The launch answer itself (JSON)</summary>
            <pre>{JSON.stringify(answer.launch, null, 2)}</pre>
          </details>
        </>
      )}
    </>
  );
}
