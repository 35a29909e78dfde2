/**
 * People: a user (e-mail + password) is a member of one or more accounts with a role. The console and the
 * OAuth consent screen act on behalf of a member; API keys and OAuth tokens act on behalf of an account.
 */
export const roles = ['owner', 'admin', 'developer', 'viewer'] as const;
export type Role = (typeof roles)[number];

/** What each role may do in the console, weakest first: a role may do everything the roles after it may. */
export function roleAtLeast(role: Role, required: Role): boolean {
  return roles.indexOf(role) <= roles.indexOf(required);
}

export interface Member {
  userId: string;
  email: string;
  accountId: string;
  role: Role;
}
