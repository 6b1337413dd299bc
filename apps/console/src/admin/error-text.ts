/** An error as the one line the admin view shows (as text, never markup). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
