-- CreateTable
CREATE TABLE "source_aliases" (
    "workspace_id" UUID NOT NULL,
    "name" VARCHAR(255) NOT NULL,
    "source_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "source_aliases_pkey" PRIMARY KEY ("workspace_id","name")
);

-- CreateIndex
CREATE INDEX "source_aliases_source_id_idx" ON "source_aliases"("source_id");

-- AddForeignKey
ALTER TABLE "source_aliases" ADD CONSTRAINT "source_aliases_source_id_fkey" FOREIGN KEY ("source_id") REFERENCES "sources"("id") ON DELETE CASCADE ON UPDATE CASCADE;
