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
type PrefixGroups = Map<string, ErrorGroup | null>;
// Built on first use, not on load: a bundle that never calls errorGroupOf leaves the table out.
let prefixGroups: PrefixGroups | undefined;

function buildPrefixGroups(): PrefixGroups {
  const groups: PrefixGroups = new Map();
  for (const route of ROUTE_TABLE) {
    const segments = route.path.split("/").slice(1);
    const firstParam = segments.findIndex((segment) => segment.startsWith(":"));
    const staticCount = firstParam === -1 ? segments.length : firstParam;
    for (let length = 2; length <= staticCount; length++) {
      const prefix = segments.slice(0, length).join("/");
      const known = groups.get(prefix);
      groups.set(prefix, known === undefined || known === route.group ? route.group : null);
    }
  }
  return groups;
}

/** The group of a request URL (path, optionally with its query) that no route matched. */
export function errorGroupOf(url: string): ResponseGroup {
  prefixGroups ??= buildPrefixGroups();
  const queryAt = url.indexOf("?");
  const segments = (queryAt === -1 ? url : url.slice(0, queryAt)).split("/").slice(1);
  for (let length = segments.length; length >= 2; length--) {
    const group = prefixGroups.get(segments.slice(0, length).join("/"));
    if (group) return group;
  }
  return "other";
}
