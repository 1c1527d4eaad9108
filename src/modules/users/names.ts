// A user's name as lists of people, leaderboards and webhooks show it: first and last name and an
// icon, from the user's preferences (the legacy userPhotoUrl stands for iconUrl while none is set).

export interface Name {
  firstName: string | null;
  lastName: string | null;
  iconUrl: string | null;
}

/** The name in stored preferences. */
export function nameOf(stored: Record<string, string | undefined>): Name {
  return { firstName: stored.firstName ?? null, lastName: stored.lastName ?? null, iconUrl: stored.iconUrl ?? stored.userPhotoUrl ?? null };
}
