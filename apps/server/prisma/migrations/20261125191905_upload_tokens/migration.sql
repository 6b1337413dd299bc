-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "policy" JSONB;

-- AlterTable
ALTER TABLE "multipart_sessions" ADD COLUMN     "upload_token_id" UUID;

-- CreateTable
CREATE TABLE "upload_tokens" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "api_key_id" UUID NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "prefix" VARCHAR(32) NOT NULL,
    "policy" JSONB NOT NULL,
    "max_files" INTEGER NOT NULL,
    "used_files" INTEGER NOT NULL DEFAULT 0,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "upload_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "upload_tokens_hash_key" ON "upload_tokens"("hash");

-- CreateIndex
CREATE INDEX "upload_tokens_api_key_id_idx" ON "upload_tokens"("api_key_id");

-- CreateIndex
CREATE INDEX "upload_tokens_expires_at_idx" ON "upload_tokens"("expires_at");

-- AddForeignKey
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "upload_tokens" ADD CONSTRAINT "upload_tokens_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;
