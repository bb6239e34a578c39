-- AlterTable
ALTER TABLE "transcription_tasks" ADD COLUMN     "errorReason" TEXT;

-- CreateTable
CREATE TABLE "satisfaction_ratings" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER,
    "fileId" INTEGER,
    "rating" INTEGER NOT NULL,
    "comment" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "satisfaction_ratings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "worker_heartbeats" (
    "workerId" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "engines" JSONB NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "seenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "worker_heartbeats_pkey" PRIMARY KEY ("workerId")
);

-- CreateIndex
CREATE INDEX "satisfaction_ratings_createdAt_idx" ON "satisfaction_ratings"("createdAt");

-- CreateIndex
CREATE INDEX "worker_heartbeats_seenAt_idx" ON "worker_heartbeats"("seenAt");

-- AddForeignKey
ALTER TABLE "satisfaction_ratings" ADD CONSTRAINT "satisfaction_ratings_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Ratings are 1 (very unsatisfied) to 5 (very satisfied).
ALTER TABLE "satisfaction_ratings" ADD CONSTRAINT "satisfaction_ratings_rating_check" CHECK ("rating" BETWEEN 1 AND 5);
