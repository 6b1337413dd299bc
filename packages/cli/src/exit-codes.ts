/** Exit codes of `trove`, documented in the README. */
export const EXIT = {
  ok: 0,
  /** The request failed, or at least one file of an upload did. */
  failure: 1,
  /** Bad usage: unknown option, missing argument, missing API key, unreadable config file. */
  usage: 2,
  /** Stopped by Ctrl-C (SIGINT) or SIGTERM; an interrupted upload resumes when run again. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
