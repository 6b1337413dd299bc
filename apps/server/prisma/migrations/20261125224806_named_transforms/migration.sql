-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "strict_transforms" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "named_transforms" (
    "workspace_id" UUID NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "transform" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "named_transforms_pkey" PRIMARY KEY ("workspace_id","name")
);

-- AddForeignKey
ALTER TABLE "named_transforms" ADD CONSTRAINT "named_transforms_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
