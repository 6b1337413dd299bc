-- AlterTable
ALTER TABLE "multipart_sessions" ADD COLUMN     "embedded_metadata" VARCHAR(16);

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "embedded_metadata" VARCHAR(16);
