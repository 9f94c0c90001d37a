/**
 * The account password policy, in one place: the CDK user pool (lib/auth), the local pool
 * (bin/local/provision.ts), the sign-up and change-password forms and the temporary passwords all
 * follow it. Pure, no imports: the frontend bundles it.
 *
 * Symbols are required: the temporary passwords Rampart emails already carry one, and a symbol
 * widens what a 12-character password has to be guessed from.
 */
export const PASSWORD_POLICY = {
  minLength: 12,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

/**
 * The characters Amazon Cognito counts as symbols (its password policy's "special characters");
 * a space counts too, but not at either end (Cognito rejects leading and trailing spaces).
 */
export const PASSWORD_SYMBOLS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ';

/** Cognito's own upper limit for a password. */
export const PASSWORD_MAX_LENGTH = 256;

export const passwordMessages = {
  tooShort: `Use at least ${PASSWORD_POLICY.minLength} characters`,
  tooLong: `Use at most ${PASSWORD_MAX_LENGTH} characters`,
  lowercase: 'Add a lowercase letter (a–z)',
  uppercase: 'Add an uppercase letter (A–Z)',
  digit: 'Add a number (0–9)',
  symbol: 'Add a symbol, such as ! @ # $ % - or _',
  edgeSpaces: 'Remove the spaces at the start and end',
} as const;

/**
 * What a password still lacks under the policy, as short sentences for the form (empty when it
 * satisfies the policy). Cognito counts only ASCII letters as upper and lower case, so this does too.
 */
export function passwordPolicyProblems(password: string): string[] {
  const problems: string[] = [];
  const length = [...password].length;
  if (length < PASSWORD_POLICY.minLength) problems.push(passwordMessages.tooShort);
  if (length > PASSWORD_MAX_LENGTH) problems.push(passwordMessages.tooLong);
  if (PASSWORD_POLICY.requireLowercase && !/[a-z]/.test(password)) problems.push(passwordMessages.lowercase);
  if (PASSWORD_POLICY.requireUppercase && !/[A-Z]/.test(password)) problems.push(passwordMessages.uppercase);
  if (PASSWORD_POLICY.requireDigits && !/[0-9]/.test(password)) problems.push(passwordMessages.digit);
  if (PASSWORD_POLICY.requireSymbols && ![...password.trim()].some((c) => PASSWORD_SYMBOLS.includes(c))) problems.push(passwordMessages.symbol);
  if (password.length > 0 && password !== password.trim()) problems.push(passwordMessages.edgeSpaces);
  return problems;
}
