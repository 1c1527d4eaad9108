// The SQL of every precompiled query (./precompiled.ts), named: on PostgreSQL each connection
// prepares it once (a named statement) and then only binds and executes it, skipping the parse and
// plan of every call (./index.ts). A bounded set: one per query and array length.
const statementNames = new Map<string, string>();

/** Names the statement (once); precompiled queries call this as they compile. */
export function nameStatement(sql: string): void {
  if (!statementNames.has(sql)) statementNames.set(sql, `ql_${statementNames.size + 1}`);
}

/** The name of a precompiled query's SQL, or undefined for any other SQL. */
export function preparedName(sql: string): string | undefined {
  return statementNames.get(sql);
}
