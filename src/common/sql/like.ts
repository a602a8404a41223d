/** Escapes LIKE wildcards with `!`, an escape character both dialects read the same way. */
export function likePattern(value: string, mode: 'contains' | 'prefix' = 'contains'): string {
  const escaped = value.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`);
  return mode === 'contains' ? `%${escaped}%` : `${escaped}%`;
}

/** A case-insensitive LIKE condition on `column` against the named parameter. */
export function likeCondition(column: string, param: string): string {
  return `LOWER(${column}) LIKE :${param} ESCAPE '!'`;
}
