-- Fight steps become an append-only log. Under the primary key (fight_id, seq) every step went
-- into the middle of an index, on a page of its own fight's, so one commit of steps from many
-- channels wrote as many pages as channels. Appended in the order they are committed, the steps
-- of one commit share a page or two. A fight finds its steps from the first one it records,
-- and, once ended, knows how many there are.

CREATE TABLE fight_log (
    id          INTEGER PRIMARY KEY,         -- the order of commits; a fight's steps in seq order
    fight_id    INTEGER NOT NULL REFERENCES fights(id),
    seq         INTEGER NOT NULL,
    side        TEXT,                        -- 'challenger' | 'challenged'; NULL for the start
    decision    TEXT,                        -- the engine's Decision as JSON; NULL for the start
    rolls       TEXT NOT NULL,               -- JSON array of [value, injected]
    at          TEXT NOT NULL
);
INSERT INTO fight_log (fight_id, seq, side, decision, rolls, at)
    SELECT fight_id, seq, side, decision, rolls, at FROM fight_steps ORDER BY fight_id, seq;
DROP TABLE fight_steps;
ALTER TABLE fight_log RENAME TO fight_steps;

ALTER TABLE fights ADD COLUMN first_step INTEGER;  -- fight_steps.id of its start (seq 0)
ALTER TABLE fights ADD COLUMN steps INTEGER;       -- how many steps it has, once ended
UPDATE fights SET
    first_step = g.first,
    steps = CASE WHEN fights.ended_at IS NULL THEN NULL ELSE g.n END
FROM (SELECT fight_id, MIN(id) AS first, COUNT(*) AS n FROM fight_steps GROUP BY fight_id) AS g
WHERE g.fight_id = fights.id;
