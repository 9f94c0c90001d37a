import type { Deps } from '../composition.js';
import { parseContract } from '../domain/contract.js';
import { GoneError, ValidationError } from '../domain/errors.js';
import { hashSetPasswordToken, SET_PASSWORD_ATTEMPTS_PER_IP } from '../domain/set-password-link.js';
import { type SetPasswordResponse, setPasswordMessages, setPasswordSchema } from '../domain/set-password.contract.js';
import { enforceLimits } from './rate-limits.js';

type SetPasswordDeps = Pick<Deps, 'setPasswordLinks' | 'users' | 'rateLimits' | 'clock' | 'log'>;

/**
 * `POST /api/account/password` (issue 29 item 4): the owner of a lead-created account chooses their
 * password with the one-time link we emailed. The token is the only proof: it is 256 random bits,
 * stored hashed, good for one use within SET_PASSWORD_LINK_HOURS. The password is checked against
 * the policy before the link is taken, so a weak one never spends it; attempts are limited per
 * address. Nothing is mailed. Answers the account's email, for the page to sign in with it.
 */
export async function setPasswordWithLink(deps: SetPasswordDeps, input: unknown, context: { sourceIp: string }): Promise<SetPasswordResponse> {
  const { token, password } = parseContract(setPasswordSchema, input);
  await enforceLimits(deps.rateLimits, [{ scope: 'set-password:ip', subject: context.sourceIp, perHour: SET_PASSWORD_ATTEMPTS_PER_IP }], 'attempts to set a password');
  const link = await deps.setPasswordLinks.take(hashSetPasswordToken(token));
  if (!link) throw new ValidationError(setPasswordMessages.linkNotValid, { token: setPasswordMessages.linkNotValid });
  if (link.expiresAt * 1000 <= deps.clock.now().getTime()) throw new GoneError('link_expired', setPasswordMessages.linkExpired);
  try {
    await deps.users.setPermanentPassword(link.userId, password);
  } catch (error) {
    const name = (error as Error).name;
    // The account was deleted since: the link is of no use any more.
    if (name === 'UserNotFoundException') throw new ValidationError(setPasswordMessages.linkNotValid, { token: setPasswordMessages.linkNotValid });
    // Cognito refused the password (a policy it holds that the form does not know): the link is put back for another try.
    if (name === 'InvalidPasswordException') {
      await deps.setPasswordLinks.put(link);
      throw new ValidationError((error as Error).message, { password: (error as Error).message });
    }
    await deps.setPasswordLinks.put(link).catch((putError: unknown) => deps.log.warn('Could not put back a set-password link', { error: String(putError) }));
    throw error;
  }
  return { email: link.email, message: setPasswordMessages.passwordSet };
}
