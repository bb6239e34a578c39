-- AlterTable
ALTER TABLE "audio_records" ADD COLUMN     "liveCreditSeconds" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "transcription_tasks" ADD COLUMN     "liveCreditUsed" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "live_sessions" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "workerId" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "waitingSince" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "endReason" TEXT,
    "secondsCharged" INTEGER NOT NULL DEFAULT 0,
    "quotaDay" TEXT,
    "lastDraws" JSONB NOT NULL DEFAULT '[]',
    "recordId" INTEGER,

    CONSTRAINT "live_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "live_sessions_userId_endedAt_idx" ON "live_sessions"("userId", "endedAt");

-- AddForeignKey
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
