-- The knights' sums (0012) are kept through a log of what changes them. Adding to a knight's
-- row at every ledger entry and every fight's end moved its entries in the three ordered indexes
-- of the standings, each on a page of its own: most of what a busy realm's commits wrote. The
-- same triggers now append to knight_sums_pending, in the same transaction as the change (the
-- appended rows share a page or two), and the book writer, or a reader of the sums, folds the
-- log into knight_sums now and then, many changes at once and each knight's once. Derived, like
-- the sums: not exported.
CREATE TABLE knight_sums_pending (
    id           INTEGER PRIMARY KEY,
    knight_id    INTEGER NOT NULL,
    hp_halves    INTEGER NOT NULL DEFAULT 0,
    pp_halves    INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0
);

DROP TRIGGER knight_sums_ledger;
CREATE TRIGGER knight_sums_ledger AFTER INSERT ON ledger
BEGIN
    INSERT INTO knight_sums_pending (knight_id, hp_halves, pp_halves)
    VALUES (NEW.knight_id, NEW.hp_halves, NEW.pp_halves);
END;

-- A fight of knights counts once, when it ends (or when it is written already ended, as an
-- import does); a fight of another game's characters has no knights.
DROP TRIGGER knight_sums_fight_end;
CREATE TRIGGER knight_sums_fight_end AFTER UPDATE OF ended_at ON fights
WHEN OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL AND NEW.challenger_id IS NOT NULL
BEGIN
    INSERT INTO knight_sums_pending (knight_id, wins, losses, draws)
    SELECT k, NEW.winner_id IS NOT NULL AND NEW.winner_id = k,
        NEW.winner_id IS NOT NULL AND NEW.winner_id <> k, NEW.winner_id IS NULL
    FROM (SELECT NEW.challenger_id AS k UNION ALL SELECT NEW.challenged_id);
END;
DROP TRIGGER knight_sums_fight_ended;
CREATE TRIGGER knight_sums_fight_ended AFTER INSERT ON fights
WHEN NEW.ended_at IS NOT NULL AND NEW.challenger_id IS NOT NULL
BEGIN
    INSERT INTO knight_sums_pending (knight_id, wins, losses, draws)
    SELECT k, NEW.winner_id IS NOT NULL AND NEW.winner_id = k,
        NEW.winner_id IS NOT NULL AND NEW.winner_id <> k, NEW.winner_id IS NULL
    FROM (SELECT NEW.challenger_id AS k UNION ALL SELECT NEW.challenged_id);
END;

-- Wins are counted in the sums now: no reader looks fights up by winner any more, and every
-- fight's end wrote a page of this index.
DROP INDEX fights_winner;
