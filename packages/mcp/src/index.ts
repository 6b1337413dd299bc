// `@trove/mcp`: the Trove MCP server as a library. The `trove-mcp` command (bin.ts) runs it over
// stdio or Streamable HTTP; `@trove/mcp/http` is the HTTP handler alone.

export { createTroveMcpServer, offeredTools } from "./create-server.js";
export { type CredentialKind, credentialKindOf, mayCall } from "./credential-scope.js";
export { TRANSFORM_GRAMMAR_URI, transformGrammarText } from "./resources/transform-grammar.js";
export { FOLDERS_URI, RECENT_FILES_URI } from "./resources/workspace-resources.js";
export { openUnderRoots, parseRoots, RootsViolation } from "./roots-guard.js";
export { runStdio } from "./stdio.js";
export type { ToolContext, ToolEntry, TransportKind } from "./tools/tool-entry.js";
export { type AccessOptions, type TroveAccess, troveAccess } from "./trove-access.js";
