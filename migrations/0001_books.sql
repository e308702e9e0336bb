-- The books of a Herald realm: users, knights, fights with their decision logs, the Honor and
-- Prestige ledger (half-point units), and the once-a-day practice record.

CREATE TABLE realms (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE
);

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    name        TEXT NOT NULL,
    UNIQUE (realm_id, name)
);

CREATE TABLE knights (
    id          INTEGER PRIMARY KEY,
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    owner_id    INTEGER NOT NULL REFERENCES users(id),
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,               -- lower-case name: names are unique case-insensitively (R3)
    style       TEXT NOT NULL CHECK (style IN ('sir', 'dame')),
    monarch     TEXT NOT NULL CHECK (monarch IN ('llewellyn', 'ragnar', 'seonaid')),
    lance       INTEGER NOT NULL,
    ride        INTEGER NOT NULL,
    observe     INTEGER NOT NULL,
    shield      INTEGER NOT NULL,
    dodge       INTEGER NOT NULL,
    sword       INTEGER NOT NULL,
    apportation INTEGER NOT NULL DEFAULT 0,
    cpk         INTEGER NOT NULL DEFAULT 0,
    hypercognition INTEGER NOT NULL DEFAULT 0,
    mesmerism   INTEGER NOT NULL DEFAULT 0,
    telepathy   INTEGER NOT NULL DEFAULT 0,
    catapsi     INTEGER NOT NULL DEFAULT 0,
    negapsi     INTEGER NOT NULL DEFAULT 0,
    landed      INTEGER NOT NULL DEFAULT 0,
    rank        TEXT NOT NULL DEFAULT 'knight',
    lord_id     INTEGER REFERENCES knights(id),
    retired     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL,
    UNIQUE (realm_id, name_key)
);
-- One active knight per player in a realm.
CREATE UNIQUE INDEX knights_one_per_owner ON knights (owner_id) WHERE retired = 0;

CREATE TABLE fights (
    id            INTEGER PRIMARY KEY,
    realm_id      INTEGER NOT NULL REFERENCES realms(id),
    channel       TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('practice', 'lists', 'melee')),
    challenger_id INTEGER NOT NULL REFERENCES knights(id),
    challenged_id INTEGER NOT NULL REFERENCES knights(id),
    challenger_user TEXT NOT NULL,
    challenged_user TEXT NOT NULL,
    setup         TEXT NOT NULL,             -- the engine's MatchSetup as JSON: both knights' sheets at the start
    seed          TEXT NOT NULL,             -- hex; published when the fight ends
    seed_hash     TEXT NOT NULL,             -- SHA-256 of the seed bytes, published when it starts
    recorded      INTEGER NOT NULL,          -- counts as the pair's practice fight of the day (R26)
    started_at    TEXT NOT NULL,
    ended_at      TEXT,
    winner_id     INTEGER REFERENCES knights(id),
    reason        TEXT,
    outcome       TEXT                        -- the engine's Outcome as JSON
);
CREATE INDEX fights_open ON fights (realm_id) WHERE ended_at IS NULL;

-- Every input of a fight, in order: seq 0 is the start, then each accepted decision, with the dice
-- it consumed, so a restart replays exactly, even dice that came from a script.
CREATE TABLE fight_steps (
    fight_id    INTEGER NOT NULL REFERENCES fights(id),
    seq         INTEGER NOT NULL,
    side        TEXT,                        -- 'challenger' | 'challenged'; NULL for the start
    decision    TEXT,                        -- the engine's Decision as JSON; NULL for the start
    rolls       TEXT NOT NULL,               -- JSON array of [value, injected]
    at          TEXT NOT NULL,
    PRIMARY KEY (fight_id, seq)
);

-- Honor and Prestige, append-only, in half points (R29). Balances are sums.
CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY,
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    knight_id   INTEGER NOT NULL REFERENCES knights(id),
    hp_halves   INTEGER NOT NULL,
    pp_halves   INTEGER NOT NULL,
    kind        TEXT NOT NULL,               -- 'practice', 'spend', 'admin', ...
    reason      TEXT NOT NULL,
    fight_id    INTEGER REFERENCES fights(id),
    by_user     TEXT,
    revokes     INTEGER REFERENCES ledger(id),
    month       TEXT NOT NULL,               -- YYYY-MM in the realm's time zone (R25)
    at          TEXT NOT NULL
);
CREATE INDEX ledger_knight ON ledger (knight_id, month);

-- At most one recorded practice fight per unordered pair and realm day (R26). knight_lo < knight_hi.
CREATE TABLE practice_days (
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    knight_lo   INTEGER NOT NULL REFERENCES knights(id),
    knight_hi   INTEGER NOT NULL REFERENCES knights(id),
    day         TEXT NOT NULL,               -- YYYY-MM-DD in the realm's time zone (R25)
    fight_id    INTEGER NOT NULL UNIQUE REFERENCES fights(id),
    UNIQUE (realm_id, knight_lo, knight_hi, day),
    CHECK (knight_lo < knight_hi)
);

-- A major injury keeps a knight out of every fight for the rest of the day (R12).
CREATE TABLE major_injuries (
    knight_id   INTEGER NOT NULL REFERENCES knights(id),
    day         TEXT NOT NULL,
    fight_id    INTEGER NOT NULL REFERENCES fights(id),
    PRIMARY KEY (knight_id, day)
);
