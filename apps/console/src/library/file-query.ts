import type { ListFilesQuery } from "@trove/sdk";

/** What the library lists: one folder (or all files), name, path and tag filters, an order. */
export interface FileQuery {
  folderNo: string | undefined;
  /** Part of the name, any case. */
  name: string;
  /** A folder path: files in it and below it (`products` finds `products/shoes/a.jpg`). */
  path: string;
  /** Comma-separated tags: files carrying all of them. */
  tags: string;
  sortField: NonNullable<ListFilesQuery["sort_field"]>;
  sortOrder: NonNullable<ListFilesQuery["sort_order"]>;
}

/** The list endpoint's largest page (API spec: limit 1 to 100): fewest requests while scrolling. */
export const PAGE_SIZE = 100;

/** The list endpoint's query for one page of `query`. */
export function listQueryOf(query: FileQuery, page: number): ListFilesQuery {
  return {
    page,
    limit: PAGE_SIZE,
    sort_field: query.sortField,
    sort_order: query.sortOrder,
    ...(query.folderNo === undefined ? {} : { folder_no: query.folderNo }),
    ...(query.name.trim() === "" ? {} : { name: query.name.trim() }),
    ...(query.path.trim() === "" ? {} : { path: query.path.trim() }),
    ...(tagsOf(query.tags).length === 0 ? {} : { tags: tagsOf(query.tags) }),
  };
}

/** The tags of a comma-separated filter, trimmed, empty ones dropped. */
export function tagsOf(text: string): string[] {
  return text
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
}
