-- DropIndex
DROP INDEX "files_workspace_id_created_at_idx";

-- DropIndex
DROP INDEX "files_workspace_id_size_idx";

-- DropIndex
DROP INDEX "files_workspace_id_updated_at_idx";

-- CreateIndex
CREATE INDEX "files_workspace_id_created_at_file_no_idx" ON "files"("workspace_id", "created_at", "file_no");

-- CreateIndex
CREATE INDEX "files_workspace_id_updated_at_file_no_idx" ON "files"("workspace_id", "updated_at", "file_no");

-- CreateIndex
CREATE INDEX "files_workspace_id_size_file_no_idx" ON "files"("workspace_id", "size", "file_no");

-- CreateIndex (by hand: Prisma's schema cannot declare an expression index; it leaves this one alone)
-- Stored names are at most 255 characters (src/uploads/stored-name.ts), so lower(name) + name stay
-- under the B-tree's 2,704-byte entry limit even in 4-byte UTF-8.
CREATE INDEX "files_workspace_id_lower_name_name_file_no_idx" ON "files"("workspace_id", lower("name"), "name", "file_no");
