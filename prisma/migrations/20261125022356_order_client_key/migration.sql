-- AlterTable
ALTER TABLE "orders" ADD COLUMN     "clientKey" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "orders_userId_clientKey_key" ON "orders"("userId", "clientKey");
