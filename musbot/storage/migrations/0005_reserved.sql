-- 0005: reserved for another branch's migration (0005–0007 are taken); this file only keeps
-- the numbers without a gap until that branch is merged, which replaces it. It changes nothing.

SELECT 1;
