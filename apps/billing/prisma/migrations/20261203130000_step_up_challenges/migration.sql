-- CreateTable
CREATE TABLE "step_up_challenges" (
    "caller_id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "challenged_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "step_up_challenges_pkey" PRIMARY KEY ("caller_id","scope")
);
