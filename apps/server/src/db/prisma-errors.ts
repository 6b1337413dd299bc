/** Recognising Prisma's known request errors without importing its runtime classes everywhere. */

function codeOf(error: unknown): string | undefined {
  if (typeof error === "object" && error !== null && "code" in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === "string" ? code : undefined;
  }
  return undefined;
}

/** P2002: a unique constraint failed (duplicate path, name, number...). */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === "P2002";
}

/** P2025: the record an update/delete needed was not found. */
export function isRecordNotFound(error: unknown): boolean {
  return codeOf(error) === "P2025";
}

/** P2003: a foreign key constraint failed (e.g. deleting a folder that still has files). */
export function isForeignKeyViolation(error: unknown): boolean {
  return codeOf(error) === "P2003";
}
