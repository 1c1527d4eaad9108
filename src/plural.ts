// Counts in messages people read: "1 line", "2 lines", "0 users and groups".

/** `count` and the noun in the number it takes: the singular for exactly 1, else the plural. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
