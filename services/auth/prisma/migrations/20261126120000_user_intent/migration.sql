-- AlterTable
ALTER TABLE "users" ADD COLUMN     "intent" TEXT;
