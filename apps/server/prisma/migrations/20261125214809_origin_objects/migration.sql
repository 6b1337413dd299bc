-- AlterTable
ALTER TABLE "file_variants" ADD COLUMN     "origin_object_id" UUID,
ALTER COLUMN "file_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "origin_objects" (
    "id" UUID NOT NULL,
    "source_id" UUID NOT NULL,
    "host" TEXT NOT NULL DEFAULT '',
    "path" TEXT NOT NULL,
    "source_version" TIMESTAMPTZ(3) NOT NULL,
    "storage_key" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "origin_etag" TEXT,
    "origin_last_modified" TIMESTAMPTZ(3),
    "checked_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "origin_objects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "origin_objects_source_id_host_path_key" ON "origin_objects"("source_id", "host", "path");

-- CreateIndex
CREATE INDEX "file_variants_origin_object_id_last_used_at_idx" ON "file_variants"("origin_object_id", "last_used_at");

-- AddForeignKey
ALTER TABLE "file_variants" ADD CONSTRAINT "file_variants_origin_object_id_fkey" FOREIGN KEY ("origin_object_id") REFERENCES "origin_objects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "origin_objects" ADD CONSTRAINT "origin_objects_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A variant belongs to exactly one file or one origin object.
ALTER TABLE "file_variants" ADD CONSTRAINT "file_variants_one_owner" CHECK (num_nonnulls("file_id", "origin_object_id") = 1);
