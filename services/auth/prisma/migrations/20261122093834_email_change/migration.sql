-- AlterTable
ALTER TABLE "email_verification_tokens" ADD COLUMN     "new_email" TEXT;
