import * as z from "zod";

/**
 * Every list tool answers one page: a model that asks for "all files" gets the first page and the
 * total, never the whole workspace in one answer (its context, and the server, have limits).
 */
export const MAX_PAGE_SIZE = 100;

export const pageInput = {
  page: z.number().int().min(1).default(1).describe("Page number, from 1."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(20)
    .describe(`Items per page, 1..${MAX_PAGE_SIZE}.`),
};

export interface PageSummary {
  page: number;
  limit: number;
  total: number;
  has_more: boolean;
}

/** A page of a list the API answers whole (folders): cut here, with the same summary. */
export function slicePage<T>(
  items: readonly T[],
  page: number,
  limit: number,
): { items: T[]; page: PageSummary } {
  const start = (page - 1) * limit;
  return {
    items: items.slice(start, start + limit),
    page: { page, limit, total: items.length, has_more: start + limit < items.length },
  };
}
