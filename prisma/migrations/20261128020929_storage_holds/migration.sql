-- CreateTable
CREATE TABLE "storage_holds" (
    "id" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "storage_holds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "storage_holds_userId_expiresAt_idx" ON "storage_holds"("userId", "expiresAt");

-- AddForeignKey
ALTER TABLE "storage_holds" ADD CONSTRAINT "storage_holds_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
