-- AlterTable
ALTER TABLE "share_links" ADD COLUMN     "clipId" INTEGER;

-- CreateTable
CREATE TABLE "clips" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "fileId" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "startTime" INTEGER NOT NULL,
    "endTime" INTEGER NOT NULL,
    "segments" JSONB NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'audio',
    "storageKey" TEXT,
    "audioKey" TEXT,
    "fileSize" BIGINT NOT NULL DEFAULT 0,
    "status" INTEGER NOT NULL DEFAULT 3,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "errorCode" INTEGER,
    "errorReason" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "clips_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "clips_storageKey_key" ON "clips"("storageKey");

-- CreateIndex
CREATE INDEX "clips_fileId_createdAt_idx" ON "clips"("fileId", "createdAt");

-- CreateIndex
CREATE INDEX "clips_userId_createdAt_idx" ON "clips"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "clips_status_idx" ON "clips"("status");

-- CreateIndex
CREATE INDEX "share_links_clipId_idx" ON "share_links"("clipId");

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_clipId_fkey" FOREIGN KEY ("clipId") REFERENCES "clips"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clips" ADD CONSTRAINT "clips_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clips" ADD CONSTRAINT "clips_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;
