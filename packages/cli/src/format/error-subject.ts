/** What a failed request was about, kept beside the error for its sentence. */
export interface ErrorAbout {
  /** "file 1001", "folder k3j2", "source media". */
  subject: string;
  /** The verb for a refusal: "delete" → "could not delete folder k3j2: …". */
  action?: string;
  /** What to do next, a sentence of its own. */
  hint?: string;
}

const notes = new WeakMap<object, ErrorAbout>();

/** Runs `work`; an error it throws is remembered as being about `what`. */
export async function about<T>(what: string | ErrorAbout, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (typeof error === "object" && error !== null && !notes.has(error)) {
      notes.set(error, typeof what === "string" ? { subject: what } : what);
    }
    throw error;
  }
}

export function aboutOf(error: unknown): ErrorAbout | undefined {
  return typeof error === "object" && error !== null ? notes.get(error) : undefined;
}
