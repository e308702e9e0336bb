-- Grants of land a player noble has offered and the knight has not yet answered (R31, R172): a
-- knight becomes landed "by accepting a grant of land", so a grant is an offer the knight
-- accepts or declines; it lapses unanswered after the realm's challenge timeout.
CREATE TABLE grant_offers (
    realm_id     INTEGER NOT NULL REFERENCES realms(id),
    lord_id      INTEGER NOT NULL REFERENCES knights(id),
    vassal_id    INTEGER NOT NULL REFERENCES knights(id),
    at           TEXT NOT NULL,
    PRIMARY KEY (lord_id, vassal_id)
);
CREATE INDEX grant_offers_to ON grant_offers (vassal_id);

-- Each knight's name folded for lookups (R170: names compare without case or accents), indexed
-- so that finding a knight by name reads only its candidates. SQLite's lower() folds ASCII only,
-- so the fold is kept for ASCII names (most) and left NULL for others, which the bot folds
-- itself. Triggers keep it with the name; a table of its own leaves `knights` as it was.
CREATE TABLE knight_folds (
    knight_id    INTEGER PRIMARY KEY REFERENCES knights(id),
    realm_id     INTEGER NOT NULL REFERENCES realms(id),
    fold         TEXT
);
CREATE INDEX knight_folds_by_fold ON knight_folds (realm_id, fold);
INSERT INTO knight_folds (knight_id, realm_id, fold)
    SELECT id, realm_id, CASE WHEN name GLOB '*[^ -~]*' THEN NULL ELSE lower(name) END FROM knights;
CREATE TRIGGER knight_folds_insert AFTER INSERT ON knights
BEGIN
    INSERT INTO knight_folds (knight_id, realm_id, fold)
    VALUES (NEW.id, NEW.realm_id,
            CASE WHEN NEW.name GLOB '*[^ -~]*' THEN NULL ELSE lower(NEW.name) END);
END;
CREATE TRIGGER knight_folds_rename AFTER UPDATE OF name ON knights
BEGIN
    UPDATE knight_folds
    SET fold = CASE WHEN NEW.name GLOB '*[^ -~]*' THEN NULL ELSE lower(NEW.name) END
    WHERE knight_id = NEW.id;
END;
