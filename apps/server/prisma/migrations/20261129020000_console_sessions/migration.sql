-- CreateTable
CREATE TABLE "console_sessions" (
    "id" CHAR(64) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "api_key_id" UUID,
    "admin_token_hash" CHAR(64),
    "csrf_token" VARCHAR(64) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "console_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "console_sessions_expires_at_idx" ON "console_sessions"("expires_at");
