import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, session } from './api';
import { AuditPage } from './pages/audit';
import { CampaignPage } from './pages/campaign';
import { CampaignsPage } from './pages/campaigns';
import { UserPage } from './pages/user';
import { SignIn } from './parts/sign-in';
import type { Whoami } from './types';
import './style.css';

/** The page named by the hash: `#/campaigns`, `#/campaigns/12`, `#/users/42`, `#/audit`. */
function useRoute(): string[] {
  const parse = (): string[] => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(parse);
  useEffect(() => {
    const onChange = () => setRoute(parse());
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

const PAGES = [
  ['campaigns', 'Campaigns'],
  ['users', 'A user'],
  ['audit', 'Audit'],
] as const;

function App() {
  const [me, setMe] = useState<Whoami | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState(true);
  const route = useRoute();

  const ask = () => {
    setAsking(true);
    get<Whoami>('whoami')
      .then((answer) => (setMe(answer), setProblem(null)))
      .catch((error: ApiError) => {
        setMe(null);
        // No key yet (or a wrong one): the sign-in box; another failure is shown as it is.
        if (error.status === 401) {
          if (session.key() !== null) setProblem(error.message);
          session.signOut();
        } else setProblem(error.message);
      })
      .finally(() => setAsking(false));
  };
  useEffect(ask, []);

  if (asking && me === null) return <main class="page" aria-busy="true" />;
  if (me === null) return <SignIn problem={problem} onSignIn={ask} />;

  const [page = 'campaigns', id] = route;
  return (
    <>
      <header class="top">
        <strong class="brand">CTA orchestration</strong>
        <nav aria-label="Pages">
          {PAGES.map(([path, label]) => (
            <a href={`#/${path}`} aria-current={page === path ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span class="who">
          {me.name === null ? 'open admin API (no keys configured)' : `${me.name} · ${me.role ?? 'role set by the host'}`} · tenant{' '}
          {me.tenantId}
          {me.name !== null && (
            <button type="button" class="link" onClick={() => (session.signOut(), setMe(null), setProblem(null))}>
              Sign out
            </button>
          )}
        </span>
      </header>
      <main class="page">
        {page === 'campaigns' && id === undefined && <CampaignsPage me={me} />}
        {page === 'campaigns' && id !== undefined && <CampaignPage id={id} me={me} />}
        {page === 'users' && <UserPage userId={id} me={me} />}
        {page === 'audit' && <AuditPage />}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
