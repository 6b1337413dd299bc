import type { ListFilesQuery } from "@trove/sdk";

/** What the library lists: one folder (or all files), a name filter, an order. */
export interface FileQuery {
  folderNo: string | undefined;
  name: string;
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
  };
}
