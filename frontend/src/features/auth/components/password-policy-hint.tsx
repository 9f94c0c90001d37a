import { PASSWORD_POLICY, passwordPolicyProblems } from '../../../lib/contracts';
import { breachCount } from '../api/breached-password';

export const BREACHED_PASSWORD_MESSAGE =
  'This password has appeared in a data breach, so attackers try it first. Please choose another.';

/**
 * Everything wrong with a new password: the pool's policy first (checked here, so Cognito's refusal
 * never surprises), then, once the policy is met, whether it is a known breached password.
 */
export async function passwordProblems(password: string): Promise<string[]> {
  const problems = passwordPolicyProblems(password);
  if (problems.length > 0) return problems;
  const count = await breachCount(password);
  return count ? [BREACHED_PASSWORD_MESSAGE] : [];
}

/** The policy, shown under every new-password field. */
export function PasswordPolicyHint() {
  return (
    <>
      At least {PASSWORD_POLICY.minLength} characters, with upper and lower case letters, a number and a symbol. Passwords found in
      known data breaches are refused.
    </>
  );
}
