/**
 * `fo_`: the subjects the renderer can detect and frame the output on. Anything else is refused
 * with a message that lists this set, so it grows only when a detector for the subject ships.
 */
export const FOCUS_SUBJECTS = ["face"] as const;
export type FocusSubject = (typeof FOCUS_SUBJECTS)[number];
