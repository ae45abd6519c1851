-- The chart the projector shows, and the lesson a class follows.
ALTER TABLE classes ADD COLUMN projector_chart TEXT NOT NULL DEFAULT '';
ALTER TABLE classes ADD COLUMN lesson TEXT NOT NULL DEFAULT '';
ALTER TABLE classes ADD COLUMN phase INTEGER NOT NULL DEFAULT 0;
