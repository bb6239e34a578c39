-- CreateTable
CREATE TABLE "note_tasks" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "fileId" INTEGER,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "question" TEXT NOT NULL DEFAULT '',
    "context" JSONB,
    "sourceHash" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT '',
    "requestId" TEXT,
    "status" INTEGER NOT NULL DEFAULT 3,
    "progress" INTEGER NOT NULL DEFAULT 0,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "tokensReserved" INTEGER NOT NULL DEFAULT 0,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "budgetDay" TEXT,
    "settledAt" TIMESTAMP(3),
    "model" TEXT NOT NULL DEFAULT '',
    "result" JSONB,
    "partial" JSONB,
    "errorCode" INTEGER,
    "errorReason" TEXT,
    "errorMessage" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "note_tasks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "llm_budget_days" (
    "userId" INTEGER NOT NULL,
    "day" TEXT NOT NULL,
    "used" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "llm_budget_days_pkey" PRIMARY KEY ("userId","day")
);

-- CreateIndex
CREATE INDEX "note_tasks_fileId_kind_createdAt_idx" ON "note_tasks"("fileId", "kind", "createdAt");

-- CreateIndex
CREATE INDEX "note_tasks_userId_kind_createdAt_idx" ON "note_tasks"("userId", "kind", "createdAt");

-- CreateIndex
CREATE INDEX "note_tasks_status_idx" ON "note_tasks"("status");

-- CreateIndex
CREATE UNIQUE INDEX "note_tasks_userId_requestId_key" ON "note_tasks"("userId", "requestId");

-- AddForeignKey
ALTER TABLE "note_tasks" ADD CONSTRAINT "note_tasks_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "note_tasks" ADD CONSTRAINT "note_tasks_fileId_fkey" FOREIGN KEY ("fileId") REFERENCES "audio_records"("fileId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "llm_budget_days" ADD CONSTRAINT "llm_budget_days_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
