/** Outcome of reading one directive's value: the typed value, or why it was refused. */
export type ValueResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export const accept = <T>(value: T): ValueResult<T> => ({ ok: true, value });
export const refuse = (reason: string): ValueResult<never> => ({ ok: false, reason });
