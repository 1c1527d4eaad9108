// A person's name as the console shows it: first and last, whichever are set ('' when neither is).
export const fullName = (person: { firstName: string | null; lastName: string | null }): string =>
  [person.firstName, person.lastName].filter((part) => part !== null && part !== '').join(' ');
