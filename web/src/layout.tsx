import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useState, type FormEvent } from 'react';
import { NavLink, Outlet } from 'react-router';
import { ApiError, call, canWrite, type Me, type Role } from './api';
import { ErrorNotice, Loading, PageTitle } from './ui';

const MeContext = createContext<Me | null>(null);

/** The signed-in session: who, which workspace, which role. */
export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in layout');
  return me;
}

/** Whether write controls at `needed`'s level are shown (hidden for lower roles and frozen workspaces). */
export const useCan = (needed: Role) => canWrite(useMe(), needed);

export function Layout() {
  const qc = useQueryClient();
  const me = useQuery({
    queryKey: ['me'],
    queryFn: async () => {
      try {
        return await call<Me>('GET', '/api/me');
      } catch (err) {
        if (err instanceof ApiError && err.signedOut) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
  const switchTo = useMutation({
    mutationFn: (workspaceId: string) => call('POST', '/api/me/workspace', { workspace_id: workspaceId }),
    // Everything cached belonged to the other workspace.
    onSuccess: () => qc.resetQueries(),
  });
  const signOut = useMutation({
    mutationFn: () => call('POST', '/api/auth/sign-out'),
    onSettled: () => qc.clear(),
  });
  if (me.isPending) return <Loading what="your session" />;
  if (me.isError) return <ErrorNotice error={me.error} retry={() => void me.refetch()} />;
  if (!me.data) return <SignIn />;
  const { workspace, user, role } = me.data;
  return (
    <MeContext.Provider value={me.data}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <nav aria-label="Main">
          <NavLink to="/" end>
            Projects
          </NavLink>
          <NavLink to="/campaigns">Campaigns</NavLink>
          <NavLink to="/webhooks">Webhooks</NavLink>
          {role === 'admin' && <NavLink to="/credentials">Credentials</NavLink>}
          <NavLink to="/billing">Billing</NavLink>
          <NavLink to="/usage">Usage</NavLink>
        </nav>
        <div className="who">
          <span>
            {user.email} · {workspace.name} · <span data-testid="role">{role}</span>
          </span>
          {me.data.workspaces.length > 1 && (
            <label className="switch">
              Workspace
              <select value={workspace.id} onChange={(e) => switchTo.mutate(e.target.value)} disabled={switchTo.isPending}>
                {me.data.workspaces.map((w) => (
                  <option key={w.id} value={w.id}>
                    {w.name} ({w.role})
                  </option>
                ))}
              </select>
            </label>
          )}
          <button type="button" onClick={() => signOut.mutate()}>
            Sign out
          </button>
        </div>
      </header>
      {switchTo.isError && <ErrorNotice error={switchTo.error} />}
      {workspace.frozen && (
        <div role="status" className="banner frozen">
          This workspace is frozen: everything is read-only. Contact your administrator or support to unfreeze it.
        </div>
      )}
      <main id="main">
        <Outlet />
      </main>
    </MeContext.Provider>
  );
}

function SignIn() {
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => call('POST', '/api/auth/sign-in', { email, password }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['me'] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate();
  };
  return (
    <main id="main" className="sign-in">
      <PageTitle>Sign in</PageTitle>
      <form onSubmit={submit}>
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        {signIn.isError && (
          <p role="alert" className="notice error">
            {signIn.error.message}
          </p>
        )}
      </form>
    </main>
  );
}
