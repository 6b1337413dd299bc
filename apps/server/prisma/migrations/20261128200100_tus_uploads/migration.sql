-- CreateTable
CREATE TABLE "tus_uploads" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "created_by" UUID,
    "upload_token_id" UUID,
    "key_type" VARCHAR(16) NOT NULL,
    "upload_length" BIGINT NOT NULL,
    "upload_offset" BIGINT NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "storage_key" TEXT NOT NULL,
    "storage_upload_id" TEXT,
    "parts" JSONB NOT NULL DEFAULT '[]',
    "completed_file_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tus_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tus_uploads_completed_file_id_key" ON "tus_uploads"("completed_file_id");

-- CreateIndex
CREATE INDEX "tus_uploads_expires_at_idx" ON "tus_uploads"("expires_at");

-- AddForeignKey
ALTER TABLE "tus_uploads" ADD CONSTRAINT "tus_uploads_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
