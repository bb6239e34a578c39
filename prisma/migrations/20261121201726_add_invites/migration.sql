-- Invite codes: 8 characters from an alphabet without the look-alikes I, O, 0 and 1 (32 symbols, 32^8 codes).
-- The database generates them, so every way of creating a user gets one; the app retries the rare collision.
CREATE FUNCTION yuelu_invite_code() RETURNS text
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 1 + floor(random() * 32)::int, 1), '')
  FROM generate_series(1, 8)
$$;

-- AlterTable (nullable first: existing rows are backfilled below, then the column becomes NOT NULL)
ALTER TABLE "users" ADD COLUMN     "inviteCode" VARCHAR(8),
ADD COLUMN     "invitedById" INTEGER;

-- CreateIndex
CREATE UNIQUE INDEX "users_inviteCode_key" ON "users"("inviteCode");

-- CreateIndex
CREATE INDEX "users_invitedById_idx" ON "users"("invitedById");

-- AddForeignKey
ALTER TABLE "users" ADD CONSTRAINT "users_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Backfill (hand-written): one row at a time, drawing again while a code is taken, so a collision
-- cannot fail the migration.
DO $$
DECLARE
  r record;
  c text;
BEGIN
  FOR r IN SELECT id FROM "users" WHERE "inviteCode" IS NULL ORDER BY id LOOP
    LOOP
      c := yuelu_invite_code();
      EXIT WHEN NOT EXISTS (SELECT 1 FROM "users" WHERE "inviteCode" = c);
    END LOOP;
    UPDATE "users" SET "inviteCode" = c WHERE id = r.id;
  END LOOP;
END
$$;

ALTER TABLE "users" ALTER COLUMN "inviteCode" SET DEFAULT yuelu_invite_code(),
ALTER COLUMN "inviteCode" SET NOT NULL;
