-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "previous_webhook_secret" TEXT,
ADD COLUMN     "previous_webhook_secret_expires_at" TIMESTAMPTZ(3);
