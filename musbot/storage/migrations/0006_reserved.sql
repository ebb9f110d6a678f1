-- 0006: a number left to another branch (issue 26's tournaments take 0005), which brings its
-- real 0006 with it. Empty here so that 0007 applies in order on this branch; drop this file when
-- merging that branch (the loader refuses two migrations of one number, so it cannot be
-- forgotten).

SELECT 1;  -- no change (PostgreSQL refuses a migration without any statement)
