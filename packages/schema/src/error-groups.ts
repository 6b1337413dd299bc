/**
 * Endpoint groups decide the error envelope (./error-envelope.ts). A routed request's group is its
 * route's (the route table, ./route-table.ts; the server puts it in each route's config). A URL
 * that matches no route takes the group of the longest path prefix, two segments or more, that the
 * table's paths under it all share: `/api/v1/files/…` → files, `/admin/v1/…` → admin, while
 * `/api/v1` (shared by several groups), the delivery host and health are `other`.
 */
import { ERROR_GROUPS, type ErrorGroup, ROUTE_TABLE } from "./route-table.js";

export { ERROR_GROUPS, type ErrorGroup };
/** The envelope group of any request: an API group or `other`. */
export type ResponseGroup = ErrorGroup | "other";

/** Static path prefix → its group, or null where the table's paths under it differ in group. */
const PREFIX_GROUPS = new Map<string, ErrorGroup | null>();
let longestPrefix = 0;
for (const route of ROUTE_TABLE) {
  const segments = route.path.split("/").slice(1);
  const staticCount = segments.findIndex((segment) => segment.startsWith(":"));
  const end = staticCount === -1 ? segments.length : staticCount;
  for (let length = 2; length <= end; length++) {
    const prefix = segments.slice(0, length).join("/");
    const known = PREFIX_GROUPS.get(prefix);
    PREFIX_GROUPS.set(prefix, known === undefined || known === route.group ? route.group : null);
    longestPrefix = Math.max(longestPrefix, length);
  }
}

/** The group of a request URL (path, optionally with its query) that no route matched. */
export function errorGroupOf(url: string): ResponseGroup {
  const queryAt = url.indexOf("?");
  const segments = (queryAt === -1 ? url : url.slice(0, queryAt)).split("/").slice(1);
  for (let length = Math.min(segments.length, longestPrefix); length >= 2; length--) {
    const group = PREFIX_GROUPS.get(segments.slice(0, length).join("/"));
    if (group) return group;
  }
  return "other";
}
