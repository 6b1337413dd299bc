-- CreateTable
CREATE TABLE "video_outputs" (
    "cache_key" TEXT NOT NULL,
    "file_id" UUID NOT NULL,
    "transform" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "error_code" TEXT,
    "mime_type" TEXT,
    "size" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "video_outputs_pkey" PRIMARY KEY ("cache_key")
);

-- CreateIndex
CREATE INDEX "video_outputs_file_id_last_used_at_idx" ON "video_outputs"("file_id", "last_used_at");

-- AddForeignKey
ALTER TABLE "video_outputs" ADD CONSTRAINT "video_outputs_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;
