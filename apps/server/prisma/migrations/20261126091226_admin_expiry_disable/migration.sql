-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "disabled_at" TIMESTAMPTZ(3);
