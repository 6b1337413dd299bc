import { ConflictError, type TroveClient } from "@trove/sdk/node";

type Log = (line: string) => void;

/**
 * Folders: create one at the root and one inside it, list them, rename the inner one, and
 * delete both (a folder must be empty to be deleted; the server answers 409 otherwise).
 */
export async function manageFolders(trove: TroveClient, name: string, log: Log): Promise<void> {
  const parent = await trove.folders.create({ name });
  log(`created folder ${parent.name} (folder_no ${parent.folder_no})`);
  const child = await trove.folders.create({ name: "drafts", parent_folder_no: parent.folder_no });
  log(`created folder ${child.name} inside it (folder_no ${child.folder_no})`);

  try {
    const { folders: roots } = await trove.folders.list({ name, sort: "name_asc" });
    for (const folder of roots) {
      log(`listed ${folder.name}: ${folder.total_items} files, ${folder.total_size} bytes`);
    }
    const { folders: children } = await trove.folders.list({ parent_folder_no: parent.folder_no });
    log(`it contains: ${children.map((folder) => folder.name).join(", ")}`);

    const renamed = await trove.folders.rename(child.folder_no, "final");
    log(`renamed drafts to ${renamed.name} (path ${renamed.path})`);
  } finally {
    // Children first: deleting a folder that still holds anything is refused.
    await deleteFolders(trove, [child.folder_no, parent.folder_no], log);
  }
}

async function deleteFolders(trove: TroveClient, folderNos: string[], log: Log): Promise<void> {
  for (const folderNo of folderNos) {
    try {
      await trove.folders.delete(folderNo);
      log(`deleted folder ${folderNo}`);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      log(`folder ${folderNo} is not empty; left in place`);
    }
  }
}
