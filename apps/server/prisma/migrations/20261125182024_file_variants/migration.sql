-- CreateTable
CREATE TABLE "file_variants" (
    "cache_key" TEXT NOT NULL,
    "file_id" UUID NOT NULL,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_variants_pkey" PRIMARY KEY ("cache_key")
);

-- CreateIndex
CREATE INDEX "file_variants_file_id_last_used_at_idx" ON "file_variants"("file_id", "last_used_at");

-- AddForeignKey
ALTER TABLE "file_variants" ADD CONSTRAINT "file_variants_file_id_fkey" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE CASCADE;
