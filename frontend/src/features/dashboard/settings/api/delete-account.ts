import { useMutation } from '@tanstack/react-query';
import { apiDelete } from '../../../../lib/api-client';

/**
 * `DELETE /api/me` (route `delete-me`, 204): removes the customer's data and their Cognito user.
 * The path is written out because the route is not in the manifest yet; once it is, this becomes
 * `routePath('delete-me')`.
 */
export const deleteAccount = (): Promise<void> => apiDelete('/api/me');

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
