/**
 * The one shape of an expected outcome of a domain operation: its value, or an error the caller
 * maps (a route to a status, a field message or a toast). `error.code` tells the errors apart.
 * Unexpected failures (the database is down, a bug) throw instead.
 */
export type Result<T, E extends { code: string }> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

export const fail = <E extends { code: string }>(error: E): { ok: false; error: E } => ({ ok: false, error });
