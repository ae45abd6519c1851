-- A class that follows a lesson and plays a round of the teacher's own
-- (from the round form) has left the lesson until the teacher starts a
-- phase again: its pages and the projector show that round, not the
-- phase's questions and chart.
ALTER TABLE classes ADD COLUMN off_lesson INTEGER NOT NULL DEFAULT 0;
