-- PostgreSQL's form of ../0012_web_books.sql: each knight's balances and record, kept up to
-- date by triggers in the transaction of every ledger entry and every fight's end; and the name
-- a player goes by where the transport keys them by an id.
CREATE TABLE knight_sums (
    knight_id    BIGINT PRIMARY KEY REFERENCES knights(id),
    -- The knight's realm, whether retired and its name's key, kept with the knight's, so that
    -- a page of the standings is read in order from an index and stops at its last row.
    realm_id     BIGINT NOT NULL REFERENCES realms(id),
    retired      BIGINT NOT NULL DEFAULT 0,
    name_key     TEXT NOT NULL,
    hp_halves    BIGINT NOT NULL DEFAULT 0,
    pp_halves    BIGINT NOT NULL DEFAULT 0,
    wins         BIGINT NOT NULL DEFAULT 0,
    losses       BIGINT NOT NULL DEFAULT 0,
    draws        BIGINT NOT NULL DEFAULT 0
);

INSERT INTO knight_sums (knight_id, realm_id, retired, name_key, hp_halves, pp_halves, wins,
        losses, draws)
    SELECT k.id, k.realm_id, k.retired, k.name_key,
        COALESCE((SELECT SUM(l.hp_halves) FROM ledger l WHERE l.knight_id = k.id), 0),
        COALESCE((SELECT SUM(l.pp_halves) FROM ledger l WHERE l.knight_id = k.id), 0),
        (SELECT COUNT(*) FROM fights f WHERE f.winner_id = k.id),
        (SELECT COUNT(*) FROM fights f WHERE (f.challenger_id = k.id OR f.challenged_id = k.id)
            AND f.ended_at IS NOT NULL AND f.winner_id IS NOT NULL AND f.winner_id <> k.id),
        (SELECT COUNT(*) FROM fights f WHERE (f.challenger_id = k.id OR f.challenged_id = k.id)
            AND f.ended_at IS NOT NULL AND f.winner_id IS NULL)
    FROM knights k;
CREATE INDEX knight_sums_by_hp ON knight_sums (realm_id, retired, hp_halves DESC, name_key);
CREATE INDEX knight_sums_by_pp ON knight_sums (realm_id, retired, pp_halves DESC, name_key);
CREATE INDEX knight_sums_by_wins ON knight_sums (realm_id, retired, wins DESC, hp_halves DESC,
    name_key);

CREATE FUNCTION knight_sums_knight() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO knight_sums (knight_id, realm_id, retired, name_key)
    VALUES (NEW.id, NEW.realm_id, NEW.retired, NEW.name_key);
    RETURN NULL;
END $$;
CREATE TRIGGER knight_sums_knight AFTER INSERT ON knights
    FOR EACH ROW EXECUTE FUNCTION knight_sums_knight();

CREATE FUNCTION knight_sums_knight_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE knight_sums SET retired = NEW.retired, name_key = NEW.name_key
    WHERE knight_id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER knight_sums_knight_moved AFTER UPDATE OF retired, name_key ON knights
    FOR EACH ROW EXECUTE FUNCTION knight_sums_knight_moved();

CREATE FUNCTION knight_sums_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE knight_sums SET hp_halves = hp_halves + NEW.hp_halves,
        pp_halves = pp_halves + NEW.pp_halves
    WHERE knight_id = NEW.knight_id;
    RETURN NULL;
END $$;
CREATE TRIGGER knight_sums_ledger AFTER INSERT ON ledger
    FOR EACH ROW EXECUTE FUNCTION knight_sums_ledger();

-- A fight counts once, when it ends (or when it is written already ended, as an import does).
CREATE FUNCTION knight_sums_fight() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE knight_sums SET
        wins = wins + CASE WHEN NEW.winner_id = knight_id THEN 1 ELSE 0 END,
        losses = losses + CASE WHEN NEW.winner_id <> knight_id THEN 1 ELSE 0 END,
        draws = draws + CASE WHEN NEW.winner_id IS NULL THEN 1 ELSE 0 END
    WHERE knight_id IN (NEW.challenger_id, NEW.challenged_id);
    RETURN NULL;
END $$;
CREATE TRIGGER knight_sums_fight_end AFTER UPDATE OF ended_at ON fights
    FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
    EXECUTE FUNCTION knight_sums_fight();
CREATE TRIGGER knight_sums_fight_ended AFTER INSERT ON fights
    FOR EACH ROW WHEN (NEW.ended_at IS NOT NULL)
    EXECUTE FUNCTION knight_sums_fight();

-- The name a player goes by where the transport keys them by something else (Discord: the id;
-- kept as the guild nick, else the global name, else the username, written when it changes),
-- so the web pages show a name and never the id. No row where the key is the nick (IRC,
-- console).
CREATE TABLE user_names (
    user_id      BIGINT PRIMARY KEY REFERENCES users(id),
    shown        TEXT NOT NULL
);
