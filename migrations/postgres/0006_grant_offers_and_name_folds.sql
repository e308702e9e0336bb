-- PostgreSQL's form of ../0006_grant_offers_and_name_folds.sql: grants of land awaiting an
-- answer (R31, R172), and each knight's name folded for lookups (R170), kept by triggers; a
-- name outside printable ASCII is left NULL for the bot to fold, as on SQLite.
CREATE TABLE grant_offers (
    realm_id     BIGINT NOT NULL REFERENCES realms(id),
    lord_id      BIGINT NOT NULL REFERENCES knights(id),
    vassal_id    BIGINT NOT NULL REFERENCES knights(id),
    at           TEXT NOT NULL,
    PRIMARY KEY (lord_id, vassal_id)
);
CREATE INDEX grant_offers_to ON grant_offers (vassal_id);

CREATE TABLE knight_folds (
    knight_id    BIGINT PRIMARY KEY REFERENCES knights(id),
    realm_id     BIGINT NOT NULL REFERENCES realms(id),
    fold         TEXT
);
CREATE INDEX knight_folds_by_fold ON knight_folds (realm_id, fold);
INSERT INTO knight_folds (knight_id, realm_id, fold)
    SELECT id, realm_id, CASE WHEN name ~ '[^ -~]' THEN NULL ELSE lower(name) END FROM knights;

CREATE FUNCTION knight_fold(name TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS
    $$ SELECT CASE WHEN name ~ '[^ -~]' THEN NULL ELSE lower(name) END $$;

CREATE FUNCTION knight_folds_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO knight_folds (knight_id, realm_id, fold)
    VALUES (NEW.id, NEW.realm_id, knight_fold(NEW.name));
    RETURN NULL;
END $$;
CREATE TRIGGER knight_folds_insert AFTER INSERT ON knights
    FOR EACH ROW EXECUTE FUNCTION knight_folds_insert();

CREATE FUNCTION knight_folds_rename() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE knight_folds SET fold = knight_fold(NEW.name) WHERE knight_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER knight_folds_rename AFTER UPDATE OF name ON knights
    FOR EACH ROW EXECUTE FUNCTION knight_folds_rename();
