import { deleteFileTool } from "./delete-file-tool.js";
import { deliveryUrlTool } from "./delivery-url-tool.js";
import { createFolderTool, listFoldersTool } from "./folder-tools.js";
import { getFileTool } from "./get-file-tool.js";
import { listFilesTool } from "./list-files-tool.js";
import { listSourcesTool } from "./list-sources-tool.js";
import { renameFileTool } from "./rename-file-tool.js";
import { searchFilesTool } from "./search-files-tool.js";
import { signedUrlTool } from "./signed-url-tool.js";
import type { ToolEntry } from "./tool-entry.js";
import { uploadFromUrlTool } from "./upload-from-url-tool.js";
import { uploadPathTool } from "./upload-path-tool.js";

/** Every tool, in the order a client lists them. */
export const ALL_TOOLS: readonly ToolEntry[] = [
  uploadPathTool,
  uploadFromUrlTool,
  deliveryUrlTool,
  listFilesTool,
  searchFilesTool,
  getFileTool,
  renameFileTool,
  deleteFileTool,
  signedUrlTool,
  listFoldersTool,
  createFolderTool,
  listSourcesTool,
];
