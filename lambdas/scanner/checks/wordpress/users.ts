/**
 * REST user enumeration: `/wp-json/wp/v2/users` (or `/?rest_route=/wp/v2/users` without pretty
 * permalinks) lists, by default and without logging in, every user who has published a post,
 * with the slug that is also their login name in most installs. Those are the accounts password
 * guessing then goes after.
 */

/** A user the REST API listed. */
export interface WordPressUser {
  id: number | null;
  /** The URL slug (user_nicename): the login name unless it was changed. */
  slug: string;
  /** The display name. */
  name: string | null;
}

/** The users an answer of the users endpoint lists; [] when the body is not such a list (blocked, an error object, HTML). */
export function restUsers(body: string): WordPressUser[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const users: WordPressUser[] = [];
  for (const entry of parsed) {
    if (!entry || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    if (typeof record.slug !== 'string' || record.slug === '') continue;
    users.push({
      id: typeof record.id === 'number' ? record.id : null,
      slug: record.slug,
      name: typeof record.name === 'string' ? record.name : null,
    });
  }
  return users;
}
