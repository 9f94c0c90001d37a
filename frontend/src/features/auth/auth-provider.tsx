import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { setAccessTokenSource } from '../../lib/api-client';
import type { RuntimeConfig } from '../../lib/runtime-config';
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
  /**
   * Loads Amplify and the runtime config and reads the session, once. It happens at start when
   * storage holds a session; otherwise the visitor is signed out and nothing loads until a page
   * that signs in asks (it needs the demo credentials, and to know whether sign-in is available).
   */
  start(): void;
  /** Whether the session has been (or is being) read: before that, 'signed-out' only means none is stored. */
  started: boolean;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);

/** Other tabs hear sign-in and sign-out here (SPEC §4: "changes in another tab are mirrored"). */
const CHANNEL = 'rampart-auth';

/** Amplify keeps a session's tokens under keys with this prefix, in localStorage or sessionStorage (the login's choice). */
const AMPLIFY_KEY_PREFIX = 'CognitoIdentityServiceProvider.';

/** Whether this browser may hold a signed-in session; when not, neither Amplify nor the runtime config is needed yet. */
export function storedSessionMayExist(): boolean {
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      const storage = window[name];
      for (let index = 0; index < storage.length; index++) {
        if (storage.key(index)?.startsWith(AMPLIFY_KEY_PREFIX)) return true;
      }
    } catch {
      // Storage blocked: Amplify cannot have kept a session there either.
    }
  }
  return false;
}

async function loadSession(): Promise<{ module: SessionModule; config: RuntimeConfig }> {
  const module = await import('./api/session');
  const config = await module.loadRuntimeConfig();
  module.configure(config);
  return { module, config };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [storedAtStart] = useState(storedSessionMayExist);
  const [started, setStarted] = useState(storedAtStart);
  const [status, setStatus] = useState<AuthStatus>(storedAtStart ? 'loading' : 'signed-out');
  const [user, setUser] = useState<SessionUser | undefined>();
  const [demo, setDemo] = useState<RuntimeConfig['demo']>();
  const loading = useRef<Promise<{ module: SessionModule; config: RuntimeConfig }> | undefined>(undefined);
  const channel = useRef<BroadcastChannel | undefined>(undefined);
  const reading = useRef(false);

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

  const start = useCallback(() => {
    // A ref, not the state: StrictMode's second mount and a page's own call must not read twice.
    if (reading.current) return;
    reading.current = true;
    setStarted(true);
    setStatus('loading');
    session()
      .then(async () => {
        const { config } = await loading.current!;
        setDemo(config.demo);
        await readUser();
      })
      .catch(() => {
        // Without the runtime config nobody can sign in; public pages still work.
        setStatus('unavailable');
      });
  }, [readUser, session]);

  useEffect(() => {
    // A call waits for Amplify (to send the user's token) only when a session may exist: a
    // visitor's lead goes out at once, without loading the sign-in code first.
    setAccessTokenSource(async () => (loading.current || storedSessionMayExist() ? (await session()).apiToken() : undefined));
    if (storedAtStart) start();
    if (typeof BroadcastChannel !== 'undefined') {
      channel.current = new BroadcastChannel(CHANNEL);
      channel.current.onmessage = () => void readUser().catch(() => setStatus('signed-out'));
    }
    // A second way to hear another tab sign out: Amplify's keys leaving localStorage (a "remember me"
    // session) fire a storage event here even when the channel's message is missed.
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea === window.localStorage && event.newValue === null && (event.key === null || event.key.startsWith('CognitoIdentityServiceProvider.'))) {
        void readUser().catch(() => setStatus('signed-out'));
      }
    };
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('storage', onStorage);
      channel.current?.close();
      channel.current = undefined;
    };
  }, [readUser, session, start, storedAtStart]);

  const value = useMemo(
    () => ({ status, user, demo, session, refresh, signOut, start, started }),
    [status, user, demo, session, refresh, signOut, start, started],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used within an AuthProvider');
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
    start: () => undefined,
    started: true,
    ...value,
  };
  return <AuthContext.Provider value={full}>{children}</AuthContext.Provider>;
}
