-- 0004: the timers table of 0002 goes. Nothing ever used it: turn timers live in the table layer
-- (its clock and saved state), and a restored table restarts its own. Its rows, if any, were
-- never read.

DROP TABLE timers;
