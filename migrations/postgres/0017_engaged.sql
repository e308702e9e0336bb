-- PostgreSQL's form of ../0017_engaged.sql: the same table, key and backfill, BIGINT for
-- SQLite's INTEGER, and the trigger as a function.
-- One fight at a time for a fighter, across every process on the books: a fight's start claims
-- each of its fighters here, in its own transaction; the key refuses a second claim while the
-- first fight is open, whichever process made it. The end of the fight (its `ended_at` set, in
-- the transaction that ends it) frees them. `kind` is 'knight' (PsiKnight's fights, by knight
-- id) or 'character' (the games on the referee's seam, by character id).
CREATE TABLE engaged_fighters (
    kind        TEXT NOT NULL,
    fighter_id  BIGINT NOT NULL,
    fight_id    BIGINT NOT NULL REFERENCES fights(id),
    PRIMARY KEY (kind, fighter_id)
);

-- Freed by their key (the fight's knights, or its characters), so that the key is the
-- table's one index: a busy realm's every fight's end writes no page beyond the claims' own.
CREATE FUNCTION engaged_fighters_freed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM engaged_fighters WHERE kind = 'knight' AND fight_id = NEW.id
        AND fighter_id IN (NEW.challenger_id, NEW.challenged_id);
    DELETE FROM engaged_fighters WHERE kind = 'character' AND fight_id = NEW.id
        AND fighter_id IN (SELECT character_id FROM fight_members WHERE fight_id = NEW.id
            UNION ALL SELECT NEW.challenger_character UNION ALL SELECT NEW.challenged_character);
    RETURN NULL;
END $$;
CREATE TRIGGER engaged_fighters_freed AFTER UPDATE OF ended_at ON fights
    FOR EACH ROW WHEN (NEW.ended_at IS NOT NULL) EXECUTE FUNCTION engaged_fighters_freed();

-- The fights open now claim their fighters (the first open fight of a fighter, should the
-- books already hold two).
INSERT INTO engaged_fighters (kind, fighter_id, fight_id)
SELECT 'knight', k, MIN(id) FROM (
    SELECT challenger_id AS k, id FROM fights
    WHERE ended_at IS NULL AND challenger_id IS NOT NULL
    UNION ALL
    SELECT challenged_id AS k, id FROM fights
    WHERE ended_at IS NULL AND challenged_id IS NOT NULL
) AS open_knights GROUP BY k;

INSERT INTO engaged_fighters (kind, fighter_id, fight_id)
SELECT 'character', c, MIN(id) FROM (
    SELECT m.character_id AS c, f.id FROM fights f JOIN fight_members m ON m.fight_id = f.id
    WHERE f.ended_at IS NULL
    UNION ALL
    SELECT challenger_character AS c, id FROM fights f
    WHERE ended_at IS NULL AND challenger_character IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM fight_members m WHERE m.fight_id = f.id)
    UNION ALL
    SELECT challenged_character AS c, id FROM fights f
    WHERE ended_at IS NULL AND challenged_character IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM fight_members m WHERE m.fight_id = f.id)
) AS open_characters GROUP BY c;
