-- AlterTable
ALTER TABLE "transcription_tasks" ADD COLUMN     "checkpoint" JSONB;

-- CreateTable
CREATE TABLE "search_entries" (
    "id" SERIAL NOT NULL,
    "fileId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "seq" INTEGER NOT NULL DEFAULT 0,
    "startTime" INTEGER,
    "speaker" TEXT NOT NULL DEFAULT '',
    "text" TEXT NOT NULL,
    "tokens" tsvector NOT NULL,

    CONSTRAINT "search_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "share_links" (
    "id" SERIAL NOT NULL,
    "token" TEXT NOT NULL,
    "fileId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "withAudio" BOOLEAN NOT NULL DEFAULT true,
    "passwordHash" TEXT,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "viewCount" INTEGER NOT NULL DEFAULT 0,
    "lastViewedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "share_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "search_entries_tokens_idx" ON "search_entries" USING GIN ("tokens");

-- CreateIndex
CREATE INDEX "search_entries_userId_idx" ON "search_entries"("userId");

-- CreateIndex
CREATE INDEX "search_entries_fileId_kind_seq_idx" ON "search_entries"("fileId", "kind", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "share_links_token_key" ON "share_links"("token");

-- CreateIndex
CREATE INDEX "share_links_fileId_idx" ON "share_links"("fileId");

-- CreateIndex
CREATE INDEX "share_links_userId_createdAt_idx" ON "share_links"("userId", "createdAt");

-- AddForeignKey
ALTER TABLE "search_entries" ADD CONSTRAINT "search_entries_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
