import { apiPost } from '../../../lib/api-client';
import type { SetPasswordInput, SetPasswordResponse } from '../../../lib/contracts';
import { routePath } from '../../../lib/route-path';

/** A lead-created account's password, chosen with the emailed one-time link (POST /api/account/password). */
export const setPasswordWithLink = (input: SetPasswordInput): Promise<SetPasswordResponse> => apiPost<SetPasswordResponse>(routePath('set-password'), input);
