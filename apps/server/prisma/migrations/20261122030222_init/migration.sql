-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "api_key_type" AS ENUM ('public', 'private');

-- CreateEnum
CREATE TYPE "source_type" AS ENUM ('s3', 'azure', 'google_cloud', 'image_source');

-- CreateEnum
CREATE TYPE "multipart_status" AS ENUM ('pending', 'completing', 'completed', 'aborted', 'expired');

-- CreateEnum
CREATE TYPE "job_status" AS ENUM ('pending', 'running', 'succeeded', 'failed');

-- CreateTable
CREATE TABLE "workspaces" (
    "id" UUID NOT NULL,
    "workspace_no" VARCHAR(32) NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "webhook_secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "type" "api_key_type" NOT NULL,
    "prefix" VARCHAR(32) NOT NULL,
    "hash" CHAR(64) NOT NULL,
    "name" VARCHAR(255),
    "revoked_at" TIMESTAMPTZ(3),
    "last_used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "folders" (
    "id" UUID NOT NULL,
    "folder_no" VARCHAR(32) NOT NULL,
    "workspace_id" UUID NOT NULL,
    "parent_id" UUID,
    "name" VARCHAR(255) NOT NULL,
    "path" TEXT NOT NULL,
    "created_by" UUID,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "is_delete" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "folders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "files" (
    "id" UUID NOT NULL,
    "file_no" BIGSERIAL NOT NULL,
    "workspace_id" UUID NOT NULL,
    "folder_id" UUID,
    "name" VARCHAR(1024) NOT NULL,
    "path" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "mime_type" VARCHAR(255) NOT NULL,
    "format" VARCHAR(64) NOT NULL,
    "extension" VARCHAR(64) NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "orientation" VARCHAR(32),
    "hash" VARCHAR(128) NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "custom_id" VARCHAR(255),
    "upload_source" VARCHAR(32) NOT NULL,
    "transform_string" TEXT,
    "original_url" TEXT,
    "thumbnail_key" TEXT,
    "is_private" BOOLEAN NOT NULL DEFAULT false,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "is_delete" BOOLEAN NOT NULL DEFAULT false,
    "created_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sources" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "type" "source_type" NOT NULL,
    "configuration" JSONB NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3),

    CONSTRAINT "sources_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "multipart_sessions" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "created_by" UUID,
    "file_name" VARCHAR(1024) NOT NULL,
    "size" BIGINT NOT NULL,
    "format" VARCHAR(255) NOT NULL,
    "folder_path" TEXT,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "custom_id" VARCHAR(255),
    "random_prefix" BOOLEAN NOT NULL DEFAULT false,
    "part_size" INTEGER NOT NULL,
    "part_count" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "status" "multipart_status" NOT NULL DEFAULT 'pending',
    "storage_key" TEXT,
    "storage_upload_id" TEXT,
    "completed_file_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "multipart_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "multipart_parts" (
    "session_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "size" BIGINT NOT NULL,
    "checksum" VARCHAR(128) NOT NULL,
    "etag" VARCHAR(255),
    "storage_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "multipart_parts_pkey" PRIMARY KEY ("session_id","number")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "kind" VARCHAR(64) NOT NULL,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "status" "job_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "max_attempts" INTEGER NOT NULL DEFAULT 10,
    "run_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "locked_by" VARCHAR(255),
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "workspaces_workspace_no_key" ON "workspaces"("workspace_no");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");

-- CreateIndex
CREATE INDEX "api_keys_workspace_id_created_at_idx" ON "api_keys"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "api_keys_prefix_idx" ON "api_keys"("prefix");

-- CreateIndex
CREATE UNIQUE INDEX "folders_folder_no_key" ON "folders"("folder_no");

-- CreateIndex
CREATE INDEX "folders_workspace_id_parent_id_name_idx" ON "folders"("workspace_id", "parent_id", "name");

-- CreateIndex
CREATE INDEX "folders_workspace_id_parent_id_created_at_idx" ON "folders"("workspace_id", "parent_id", "created_at");

-- CreateIndex
CREATE INDEX "folders_parent_id_idx" ON "folders"("parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "folders_workspace_id_path_key" ON "folders"("workspace_id", "path");

-- CreateIndex
CREATE UNIQUE INDEX "files_file_no_key" ON "files"("file_no");

-- CreateIndex
CREATE UNIQUE INDEX "files_storage_key_key" ON "files"("storage_key");

-- CreateIndex
CREATE INDEX "files_workspace_id_created_at_idx" ON "files"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "files_workspace_id_updated_at_idx" ON "files"("workspace_id", "updated_at");

-- CreateIndex
CREATE INDEX "files_workspace_id_name_idx" ON "files"("workspace_id", "name");

-- CreateIndex
CREATE INDEX "files_workspace_id_size_idx" ON "files"("workspace_id", "size");

-- CreateIndex
CREATE INDEX "files_workspace_id_folder_id_created_at_idx" ON "files"("workspace_id", "folder_id", "created_at");

-- CreateIndex
CREATE INDEX "files_workspace_id_hash_idx" ON "files"("workspace_id", "hash");

-- CreateIndex
CREATE INDEX "files_folder_id_idx" ON "files"("folder_id");

-- CreateIndex
CREATE INDEX "files_tags_idx" ON "files" USING GIN ("tags");

-- CreateIndex
CREATE UNIQUE INDEX "files_workspace_id_path_key" ON "files"("workspace_id", "path");

-- CreateIndex
CREATE INDEX "sources_workspace_id_created_at_idx" ON "sources"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "sources_workspace_id_type_created_at_idx" ON "sources"("workspace_id", "type", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "sources_workspace_id_name_key" ON "sources"("workspace_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "multipart_sessions_completed_file_id_key" ON "multipart_sessions"("completed_file_id");

-- CreateIndex
CREATE INDEX "multipart_sessions_workspace_id_created_at_idx" ON "multipart_sessions"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "multipart_sessions_status_expires_at_idx" ON "multipart_sessions"("status", "expires_at");

-- CreateIndex
CREATE INDEX "jobs_status_run_at_idx" ON "jobs"("status", "run_at");

-- CreateIndex
CREATE INDEX "jobs_status_locked_until_idx" ON "jobs"("status", "locked_until");

-- CreateIndex
CREATE INDEX "jobs_kind_status_idx" ON "jobs"("kind", "status");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folders" ADD CONSTRAINT "folders_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "folders" ADD CONSTRAINT "folders_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "folders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "files" ADD CONSTRAINT "files_folder_id_fkey" FOREIGN KEY ("folder_id") REFERENCES "folders"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sources" ADD CONSTRAINT "sources_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "multipart_sessions" ADD CONSTRAINT "multipart_sessions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "multipart_parts" ADD CONSTRAINT "multipart_parts_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "multipart_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
