/**
 * Cognito through Amplify Auth v6: the only module that imports aws-amplify, loaded on demand so
 * the landing page's first bundle stays small. Every function here is a thin, typed step over
 * Amplify's own; the auth provider decides what the UI does with the outcome.
 */
import { Amplify } from 'aws-amplify';
import {
  confirmResetPassword,
  confirmSignIn,
  confirmSignUp,
  fetchAuthSession,
  getCurrentUser,
  resendSignUpCode,
  resetPassword,
  signIn,
  signOut,
  setUpTOTP,
  signUp,
  updateMFAPreference,
  updatePassword,
  verifyTOTPSetup,
} from 'aws-amplify/auth';
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito';
import { ConsoleLogger, defaultStorage, sessionStorage } from 'aws-amplify/utils';
import { RUNTIME_CONFIG_PATH, runtimeConfigSchema, type RuntimeConfig } from '../../../lib/runtime-config';

export interface SessionUser {
  /** Cognito's sub: the API keys everything the user owns on it. */
  userId: string;
  email: string;
}

/** What a sign-in step asks for next. */
export type SignInOutcome =
  | { step: 'done' }
  /** Accounts created by the lead flow sign in with an emailed temporary password first. */
  | { step: 'new-password-required' }
  /** Signed up but the emailed code was never entered. */
  | { step: 'confirm-sign-up' }
  /** Two-step sign-in is on: Cognito asks for the authenticator app's 6-digit code (SOFTWARE_TOKEN_MFA). */
  | { step: 'totp-code' };

/** Which storage holds the tokens: remembered (localStorage) or this browser session only. */
const STORAGE_CHOICE_KEY = 'rampart.auth.remember';

let authFlowType: RuntimeConfig['auth']['authFlowType'] = 'USER_SRP_AUTH';

function useStorage(remember: boolean) {
  cognitoUserPoolsTokenProvider.setKeyValueStorage(remember ? defaultStorage : sessionStorage);
}

/** The deployment's runtime config (its Cognito pool, the demo credentials), checked against the contract. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch(RUNTIME_CONFIG_PATH, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Runtime configuration unavailable (HTTP ${response.status})`);
  return runtimeConfigSchema.parse(await response.json());
}

/** Configures Amplify once from the deployment's runtime config; tokens are read from the storage last chosen. */
export function configure(config: RuntimeConfig): void {
  authFlowType = config.auth.authFlowType;
  // Locally the pool is cognito-local behind /_cognito, on purpose: Amplify's warning about a
  // custom endpoint on every call is noise there (real errors still reach the console).
  if (config.auth.userPoolEndpoint) ConsoleLogger.LOG_LEVEL = 'ERROR';
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.auth.userPoolId,
        userPoolClientId: config.auth.userPoolClientId,
        ...(config.auth.userPoolEndpoint ? { userPoolEndpoint: config.auth.userPoolEndpoint } : {}),
        loginWith: { email: true },
      },
    },
  });
  useStorage(window.localStorage.getItem(STORAGE_CHOICE_KEY) !== 'session');
}

/** The signed-in user restored from storage (refreshing the tokens if needed), or undefined. */
export async function restoreUser(): Promise<SessionUser | undefined> {
  try {
    const session = await fetchAuthSession();
    const payload = session.tokens?.idToken?.payload;
    if (!payload) return undefined;
    const { userId } = await getCurrentUser();
    return { userId, email: String(payload.email ?? '') };
  } catch {
    return undefined;
  }
}

/**
 * The token the API's JWT authorizer checks (its audience is the web client), refreshed by
 * Amplify when it nears expiry. The ID token: it carries the email the API keys profiles on.
 */
export async function apiToken(): Promise<string | undefined> {
  const session = await fetchAuthSession();
  return session.tokens?.idToken?.toString();
}

function outcomeOf(step: string): SignInOutcome {
  if (step === 'DONE') return { step: 'done' };
  if (step === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') return { step: 'new-password-required' };
  if (step === 'CONFIRM_SIGN_UP') return { step: 'confirm-sign-up' };
  if (step === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') return { step: 'totp-code' };
  throw new Error(`This sign-in needs a step the site does not support yet (${step}).`);
}

export async function logIn(email: string, password: string, remember: boolean): Promise<SignInOutcome> {
  // A stale session (another user's, or half-finished) would make Amplify refuse to sign in; it
  // is cleared from the storage it lives in before the new choice of storage takes over, so no
  // earlier user's tokens stay behind in localStorage.
  await signOut().catch(() => undefined);
  window.localStorage.setItem(STORAGE_CHOICE_KEY, remember ? 'local' : 'session');
  useStorage(remember);
  const result = await signIn({ username: email, password, options: { authFlowType } });
  return outcomeOf(result.nextStep.signInStep);
}

/** Answers the NEW_PASSWORD_REQUIRED challenge of a first sign-in with a temporary password. */
export async function setFirstPassword(newPassword: string): Promise<SignInOutcome> {
  const result = await confirmSignIn({ challengeResponse: newPassword });
  return outcomeOf(result.nextStep.signInStep);
}

/** Answers the SOFTWARE_TOKEN_MFA challenge (RespondToAuthChallenge) with the authenticator's code. */
export async function answerTotpCode(code: string): Promise<SignInOutcome> {
  const result = await confirmSignIn({ challengeResponse: code });
  return outcomeOf(result.nextStep.signInStep);
}

/** Two-step sign-in, first step: a new TOTP secret (AssociateSoftwareToken) and the otpauth:// URI an authenticator app reads. */
export async function startTotpSetup(email: string, issuer: string): Promise<{ secret: string; uri: string }> {
  const details = await setUpTOTP();
  return { secret: details.sharedSecret, uri: details.getSetupUri(issuer, email).toString() };
}

/** The app's first code proves the secret (VerifySoftwareToken); then TOTP is the preferred second step (SetUserMFAPreference). */
export async function finishTotpSetup(code: string): Promise<void> {
  await verifyTOTPSetup({ code, options: { friendlyDeviceName: 'Authenticator app' } });
  await updateMFAPreference({ totp: 'PREFERRED' });
}

/** Turns TOTP off (SetUserMFAPreference); the page offers it only when the API says it is not required. */
export async function turnOffTotp(): Promise<void> {
  await updateMFAPreference({ totp: 'DISABLED' });
}

export interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Creates the Cognito user; Cognito emails a confirmation code. */
export async function register(input: SignUpInput): Promise<void> {
  await signUp({
    username: input.email,
    password: input.password,
    options: { userAttributes: { email: input.email, given_name: input.firstName, family_name: input.lastName } },
  });
}

export async function confirmRegistration(email: string, code: string): Promise<void> {
  await confirmSignUp({ username: email, confirmationCode: code });
}

export async function resendRegistrationCode(email: string): Promise<void> {
  await resendSignUpCode({ username: email });
}

export async function requestPasswordReset(email: string): Promise<void> {
  await resetPassword({ username: email });
}

export async function completePasswordReset(email: string, code: string, newPassword: string): Promise<void> {
  await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
}

/** Cognito checks the current password (ChangePassword). */
export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  await updatePassword({ oldPassword, newPassword });
}

/** Signs out here; a session Cognito no longer knows (a deleted account) is cleared all the same. */
export async function logOut(): Promise<void> {
  await signOut().catch(() => signOut({ global: false }).catch(() => undefined));
}
