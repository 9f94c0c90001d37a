import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { setAccessTokenSource } from '../../lib/api-client';
import { RUNTIME_CONFIG_PATH, runtimeConfigSchema, type RuntimeConfig } from '../../lib/contracts';
import type { SessionUser } from './api/session';

type SessionModule = typeof import('./api/session');

/** SPEC §4 "Session": loading at start, then restored or unauthenticated. */
export type AuthStatus = 'loading' | 'signed-in' | 'signed-out' | 'unavailable';

export interface AuthContextValue {
  status: AuthStatus;
  user: SessionUser | undefined;
  /** DECISIONS "Demo account": the demo credentials when the deployment shows them. */
  demo: RuntimeConfig['demo'];
  /** Amplify's steps, once configured (sign in, sign up, reset, change password). */
  session(): Promise<SessionModule>;
  /** Re-reads the session after a step that signs in, and tells the other tabs. */
  refresh(): Promise<SessionUser | undefined>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

/** Other tabs hear sign-in and sign-out here (SPEC §4: "changes in another tab are mirrored"). */
const CHANNEL = 'rampart-auth';

async function loadSession(): Promise<{ module: SessionModule; config: RuntimeConfig }> {
  const response = await fetch(RUNTIME_CONFIG_PATH, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Runtime configuration unavailable (HTTP ${response.status})`);
  const config = runtimeConfigSchema.parse(await response.json());
  const module = await import('./api/session');
  module.configure(config);
  return { module, config };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<SessionUser | undefined>();
  const [demo, setDemo] = useState<RuntimeConfig['demo']>();
  const loading = useRef<Promise<{ module: SessionModule; config: RuntimeConfig }> | undefined>(undefined);
  const channel = useRef<BroadcastChannel | undefined>(undefined);

  const session = useCallback(async () => {
    loading.current ??= loadSession();
    try {
      return (await loading.current).module;
    } catch (error) {
      loading.current = undefined;
      throw error;
    }
  }, []);

  /** Reads who is signed in; a different user than before drops every cached answer. */
  const readUser = useCallback(async () => {
    const module = await session();
    const next = await module.restoreUser();
    setUser((previous) => {
      if (previous?.userId !== next?.userId) queryClient.clear();
      return next;
    });
    setStatus(next ? 'signed-in' : 'signed-out');
    return next;
  }, [queryClient, session]);

  const refresh = useCallback(async () => {
    const next = await readUser();
    channel.current?.postMessage('changed');
    return next;
  }, [readUser]);

  const signOut = useCallback(async () => {
    await (await session()).logOut();
    queryClient.clear();
    setUser(undefined);
    setStatus('signed-out');
    channel.current?.postMessage('changed');
  }, [queryClient, session]);

  useEffect(() => {
    let active = true;
    setAccessTokenSource(async () => (loading.current ? (await session()).apiToken() : undefined));
    session()
      .then(async () => {
        const { config } = await loading.current!;
        if (!active) return;
        setDemo(config.demo);
        await readUser();
      })
      .catch(() => {
        // Without the runtime config nobody can sign in; public pages still work.
        if (active) setStatus('unavailable');
      });
    if (typeof BroadcastChannel !== 'undefined') {
      channel.current = new BroadcastChannel(CHANNEL);
      channel.current.onmessage = () => void readUser().catch(() => setStatus('signed-out'));
    }
    return () => {
      active = false;
      channel.current?.close();
      channel.current = undefined;
    };
  }, [readUser, session]);

  const value = useMemo(() => ({ status, user, demo, session, refresh, signOut }), [status, user, demo, session, refresh, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside AuthProvider');
  return value;
}

/** For tests and stories: a fixed auth state without Amplify. */
export function AuthTestProvider({ value, children }: { value: Partial<AuthContextValue>; children: ReactNode }) {
  const full: AuthContextValue = {
    status: 'signed-in',
    user: { userId: 'user-1', email: 'owner@example.com' },
    demo: undefined,
    session: () => Promise.reject(new Error('No Amplify in tests')),
    refresh: async () => value.user,
    signOut: async () => undefined,
    ...value,
  };
  return <AuthContext.Provider value={full}>{children}</AuthContext.Provider>;
}
