-- The knights' sums (0012) are kept through a log of what changes them. Adding to a knight's
-- row at every ledger entry and every fight's end moved its entries in the three ordered indexes
-- of the standings, each on a page of its own: most of what a busy realm's commits wrote. The
-- same triggers now append to knight_sums_pending, in the same transaction as the change (the
-- appended rows share a page or two), and the book writer, or a reader of the sums, folds the
-- log into knight_sums now and then, many changes at once and each knight's once. Derived, like
-- the sums: not exported.
CREATE TABLE knight_sums_pending (
    id           BIGSERIAL PRIMARY KEY,
    knight_id    BIGINT NOT NULL,
    hp_halves    BIGINT NOT NULL DEFAULT 0,
    pp_halves    BIGINT NOT NULL DEFAULT 0,
    wins         BIGINT NOT NULL DEFAULT 0,
    losses       BIGINT NOT NULL DEFAULT 0,
    draws        BIGINT NOT NULL DEFAULT 0
);

CREATE OR REPLACE FUNCTION knight_sums_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO knight_sums_pending (knight_id, hp_halves, pp_halves)
    VALUES (NEW.knight_id, NEW.hp_halves, NEW.pp_halves);
    RETURN NULL;
END $$;

-- A fight of knights counts once, when it ends (or when it is written already ended, as an
-- import does); a fight of another game's characters has no knights.
CREATE OR REPLACE FUNCTION knight_sums_fight() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.challenger_id IS NOT NULL THEN
        INSERT INTO knight_sums_pending (knight_id, wins, losses, draws)
        SELECT k,
            CASE WHEN NEW.winner_id = k THEN 1 ELSE 0 END,
            CASE WHEN NEW.winner_id <> k THEN 1 ELSE 0 END,
            CASE WHEN NEW.winner_id IS NULL THEN 1 ELSE 0 END
        FROM (VALUES (NEW.challenger_id), (NEW.challenged_id)) AS v (k);
    END IF;
    RETURN NULL;
END $$;

-- Wins are counted in the sums now: no reader looks fights up by winner any more, and every
-- fight's end wrote a page of this index.
DROP INDEX fights_winner;
