-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "last_response_status" INTEGER,
ADD COLUMN     "workspace_id" UUID;

-- CreateIndex
CREATE INDEX "jobs_workspace_id_kind_created_at_idx" ON "jobs"("workspace_id", "kind", "created_at");

-- Webhook jobs enqueued before this migration carry their workspace only in the payload.
UPDATE "jobs" SET "workspace_id" = ("payload"->>'workspaceId')::uuid
 WHERE "kind" = 'webhook' AND "workspace_id" IS NULL AND "payload"->>'workspaceId' IS NOT NULL;
