-- AlterTable
ALTER TABLE "feedback" ADD COLUMN     "handledAt" TIMESTAMP(3),
ADD COLUMN     "reply" TEXT NOT NULL DEFAULT '';

-- AlterTable
ALTER TABLE "gift_codes" ADD COLUMN     "disabledAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "refundReason" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "refundedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "disabledAt" TIMESTAMP(3),
ADD COLUMN     "disabledReason" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'user';

-- CreateTable
CREATE TABLE "admin_audit" (
    "id" SERIAL NOT NULL,
    "actorId" INTEGER,
    "actorPhone" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL DEFAULT '',
    "before" JSONB,
    "after" JSONB,
    "reason" TEXT NOT NULL DEFAULT '',
    "ip" TEXT NOT NULL DEFAULT '',
    "userAgent" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_audit_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "admin_grants" (
    "id" SERIAL NOT NULL,
    "requestId" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "actorId" INTEGER,
    "kind" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_grants_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "admin_audit_createdAt_idx" ON "admin_audit"("createdAt");

-- CreateIndex
CREATE INDEX "admin_audit_action_createdAt_idx" ON "admin_audit"("action", "createdAt");

-- CreateIndex
CREATE INDEX "admin_audit_target_idx" ON "admin_audit"("target");

-- CreateIndex
CREATE UNIQUE INDEX "admin_grants_requestId_key" ON "admin_grants"("requestId");

-- CreateIndex
CREATE INDEX "admin_grants_userId_createdAt_idx" ON "admin_grants"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "feedback_handledAt_createdAt_idx" ON "feedback"("handledAt", "createdAt");

-- CreateIndex
CREATE INDEX "gift_codes_batch_idx" ON "gift_codes"("batch");

-- CreateIndex
CREATE INDEX "users_createdAt_idx" ON "users"("createdAt");


-- The audit log is append-only: no UPDATE, no DELETE, whoever asks (docs/admin.md).
CREATE FUNCTION yuelu_admin_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit is append-only';
END;
$$;
CREATE TRIGGER admin_audit_append_only BEFORE UPDATE OR DELETE ON "admin_audit"
  FOR EACH ROW EXECUTE FUNCTION yuelu_admin_audit_append_only();
