/** Outcome of reading one directive's value: the typed value, or why it was refused. */
export type ValueResult<T> = { ok: true; value: T } | { ok: false; reason: string };

export const accept = <T>(value: T): ValueResult<T> => ({ ok: true, value });
export const refuse = (reason: string): ValueResult<never> => ({ ok: false, reason });

/** A reader that accepts one of `values` as written, else refuses with `reason`. */
export const oneOf =
  <T extends string>(values: readonly T[], reason: string) =>
  (text: string): ValueResult<T> =>
    (values as readonly string[]).includes(text) ? accept(text as T) : refuse(reason);
