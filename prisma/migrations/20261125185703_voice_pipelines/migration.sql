-- DropIndex
DROP INDEX "user_voices_userId_idx";

-- AlterTable
ALTER TABLE "tts_tasks" ADD COLUMN     "userVoiceId" INTEGER;

-- AlterTable
ALTER TABLE "user_voices" ADD COLUMN     "attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "baseProfile" JSONB,
ADD COLUMN     "basePromptId" INTEGER,
ADD COLUMN     "errorCode" INTEGER,
ADD COLUMN     "errorReason" TEXT,
ADD COLUMN     "finishedAt" TIMESTAMP(3),
ADD COLUMN     "language" TEXT NOT NULL DEFAULT 'zh',
ADD COLUMN     "method" TEXT NOT NULL DEFAULT 'match',
ADD COLUMN     "previewKey" TEXT,
ADD COLUMN     "profile" JSONB,
ADD COLUMN     "progress" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "quality" JSONB,
ADD COLUMN     "quotaDay" TEXT,
ADD COLUMN     "refundedAt" TIMESTAMP(3),
ADD COLUMN     "requestId" TEXT,
ADD COLUMN     "sampleSeconds" DOUBLE PRECISION NOT NULL DEFAULT 0,
ADD COLUMN     "startedAt" TIMESTAMP(3),
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ALTER COLUMN "status" SET DEFAULT 3;

-- CreateTable
CREATE TABLE "voice_works" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "promptId" INTEGER,
    "userVoiceId" INTEGER,
    "voiceName" TEXT NOT NULL,
    "voiceNameEn" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT 'zh',
    "settings" JSONB NOT NULL,
    "inputKey" TEXT,
    "outputKey" TEXT,
    "vocalsKey" TEXT,
    "fileSize" INTEGER,
    "durationMs" INTEGER,
    "requestId" TEXT,
    "status" INTEGER NOT NULL DEFAULT 3,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "quotaDay" TEXT,
    "refundedAt" TIMESTAMP(3),
    "errorCode" INTEGER,
    "errorReason" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "voice_works_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "voice_quota_days" (
    "userId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "voice_quota_days_pkey" PRIMARY KEY ("userId","day")
);

-- CreateIndex
CREATE INDEX "voice_works_userId_kind_createdAt_idx" ON "voice_works"("userId", "kind", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "voice_works_userId_requestId_key" ON "voice_works"("userId", "requestId");

-- CreateIndex
CREATE INDEX "user_voices_userId_createdAt_idx" ON "user_voices"("userId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "user_voices_userId_requestId_key" ON "user_voices"("userId", "requestId");

-- AddForeignKey
ALTER TABLE "tts_tasks" ADD CONSTRAINT "tts_tasks_userVoiceId_fkey" FOREIGN KEY ("userVoiceId") REFERENCES "user_voices"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voice_works" ADD CONSTRAINT "voice_works_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voice_works" ADD CONSTRAINT "voice_works_userVoiceId_fkey" FOREIGN KEY ("userVoiceId") REFERENCES "user_voices"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "voice_quota_days" ADD CONSTRAINT "voice_quota_days_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
