import { useState } from 'preact/hooks';
import { session } from '../api';

/** The admin key (kept in this tab's sessionStorage, never shown again) and the person's name for the audit history. */
export function SignIn({ problem, onSignIn }: { problem: string | null; onSignIn: () => void }) {
  const [key, setKey] = useState('');
  const [user, setUser] = useState('');
  const [tenant, setTenant] = useState('');
  return (
    <main class="page sign-in">
      <h1>Sign in</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          session.signIn(key.trim(), user.trim(), tenant.trim());
          setKey('');
          onSignIn();
        }}
      >
        <label>
          Admin key
          <input
            type="password"
            name="key"
            autoComplete="off"
            required
            value={key}
            onInput={(e) => setKey(e.currentTarget.value)}
            autoFocus
          />
        </label>
        <label>
          Your name or e-mail <small>(recorded in the audit history with your changes; optional)</small>
          <input type="text" name="user" autoComplete="email" value={user} onInput={(e) => setUser(e.currentTarget.value)} />
        </label>
        <label>
          Tenant <small>(x-tenant-id; empty: the default tenant)</small>
          <input type="text" name="tenant" autoComplete="off" value={tenant} onInput={(e) => setTenant(e.currentTarget.value)} />
        </label>
        {problem !== null && (
          <p role="alert" class="error">
            {problem}
          </p>
        )}
        <button type="submit">Sign in</button>
        <p class="hint">The key stays in this browser tab only and is sent to this service alone, as x-api-key.</p>
      </form>
    </main>
  );
}
