-- Each knight's balances and record, kept up to date by triggers in the transaction of every
-- ledger entry and every fight's end, so that the standings read one row per knight instead of
-- summing the whole ledger and counting every fight. Derived like knight_folds: not exported,
-- made again by the triggers as rows are imported.
CREATE TABLE knight_sums (
    knight_id    INTEGER PRIMARY KEY REFERENCES knights(id),
    -- The knight's realm, whether retired and its name's key, kept with the knight's, so that
    -- a page of the standings is read in order from an index and stops at its last row.
    realm_id     INTEGER NOT NULL REFERENCES realms(id),
    retired      INTEGER NOT NULL DEFAULT 0,
    name_key     TEXT NOT NULL,
    hp_halves    INTEGER NOT NULL DEFAULT 0,
    pp_halves    INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0
);

-- The books as they stand: every knight's sums from the existing rows (the record as the web
-- counted it: a fight won, a fight ended with another winner, a fight ended without one).
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

CREATE TRIGGER knight_sums_knight AFTER INSERT ON knights
BEGIN
    INSERT INTO knight_sums (knight_id, realm_id, retired, name_key)
    VALUES (NEW.id, NEW.realm_id, NEW.retired, NEW.name_key);
END;

CREATE TRIGGER knight_sums_knight_moved AFTER UPDATE OF retired, name_key ON knights
BEGIN
    UPDATE knight_sums SET retired = NEW.retired, name_key = NEW.name_key
    WHERE knight_id = NEW.id;
END;

CREATE TRIGGER knight_sums_ledger AFTER INSERT ON ledger
BEGIN
    UPDATE knight_sums SET hp_halves = hp_halves + NEW.hp_halves,
        pp_halves = pp_halves + NEW.pp_halves
    WHERE knight_id = NEW.knight_id;
END;

-- A fight counts once, when it ends (or when it is written already ended, as an import does).
CREATE TRIGGER knight_sums_fight_end AFTER UPDATE OF ended_at ON fights
WHEN OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL
BEGIN
    UPDATE knight_sums SET
        wins = wins + (NEW.winner_id IS NOT NULL AND NEW.winner_id = knight_id),
        losses = losses + (NEW.winner_id IS NOT NULL AND NEW.winner_id <> knight_id),
        draws = draws + (NEW.winner_id IS NULL)
    WHERE knight_id IN (NEW.challenger_id, NEW.challenged_id);
END;
CREATE TRIGGER knight_sums_fight_ended AFTER INSERT ON fights
WHEN NEW.ended_at IS NOT NULL
BEGIN
    UPDATE knight_sums SET
        wins = wins + (NEW.winner_id IS NOT NULL AND NEW.winner_id = knight_id),
        losses = losses + (NEW.winner_id IS NOT NULL AND NEW.winner_id <> knight_id),
        draws = draws + (NEW.winner_id IS NULL)
    WHERE knight_id IN (NEW.challenger_id, NEW.challenged_id);
END;

-- The name a player goes by where the transport keys them by something else (Discord: the id;
-- kept as the guild nick, else the global name, else the username, written when it changes),
-- so the web pages show a name and never the id. No row where the key is the nick (IRC,
-- console).
CREATE TABLE user_names (
    user_id      INTEGER PRIMARY KEY REFERENCES users(id),
    shown        TEXT NOT NULL
);
