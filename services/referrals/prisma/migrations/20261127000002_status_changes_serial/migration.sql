-- Issue 15: the Impact dashboard's recent activity reads the newest status changes of a user by
-- (user_id, at DESC) and stops at 10. Estimating it would read thousands of them, PostgreSQL started
-- parallel workers for it: 3-12 ms of worker start-up for 0.8 ms of work (EXPLAIN ANALYZE, user with
-- 10,000 referrals among 1,000,000). No query of this table gains from parallel scans.
ALTER TABLE "referral_status_changes" SET (parallel_workers = 0);
