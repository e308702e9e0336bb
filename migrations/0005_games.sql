-- One referee, several games. Each channel plays one game (the configured default unless a
-- moderator chose another, remembered here); the characters of the games other than PsiKnight
-- have sheets of their own (JSON, the game's type) and what outlasts a fight (its state); and
-- every game's fights share the fights table and the one fight log, marked with the game's id.
--
-- The fights table is rebuilt, the only way SQLite changes a column's constraints: a fight now
-- names its game, its fighters are PsiKnight knights or, for the other games, characters, and
-- 'bout' joins the kinds. Its rows are copied aside, the table dropped and made anew, and the
-- rows put back. Foreign keys are deferred to the commit (foreign_keys itself cannot change
-- inside the migration's transaction): the steps, ledger entries and practice days that refer to
-- a fight find it again once its row is back.
PRAGMA defer_foreign_keys = ON;
CREATE TABLE fights_copy AS SELECT * FROM fights;

CREATE TABLE channel_games (
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    channel     TEXT NOT NULL,
    game        TEXT NOT NULL,               -- a game's id: 'psiknight', 'tourney', ...
    set_by      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (realm_id, channel)
);

CREATE TABLE characters (
    id          INTEGER PRIMARY KEY,
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    game        TEXT NOT NULL,
    owner_id    INTEGER REFERENCES users(id), -- NULL for a non-player character
    created_by  TEXT NOT NULL,               -- the player, or the moderator who made the NPC
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,               -- lower-case: names are unique per game, any case
    sheet       TEXT NOT NULL,               -- the game's sheet as JSON
    state       TEXT NOT NULL,               -- what outlasts a fight, as JSON (hits, weapons...)
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    retired     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX characters_name ON characters (realm_id, game, name_key) WHERE retired = 0;
-- One character per player per game in a realm.
CREATE UNIQUE INDEX characters_one_per_owner ON characters (realm_id, game, owner_id)
    WHERE retired = 0 AND owner_id IS NOT NULL;

DROP INDEX fights_open;
DROP TABLE fights;
CREATE TABLE fights (
    id            INTEGER PRIMARY KEY,
    realm_id      INTEGER NOT NULL REFERENCES realms(id),
    channel       TEXT NOT NULL,
    game          TEXT NOT NULL DEFAULT 'psiknight',
    kind          TEXT NOT NULL CHECK (kind IN ('practice', 'lists', 'melee', 'bout')),
    challenger_id INTEGER REFERENCES knights(id),       -- PsiKnight's knights
    challenged_id INTEGER REFERENCES knights(id),
    challenger_character INTEGER REFERENCES characters(id), -- the other games' characters
    challenged_character INTEGER REFERENCES characters(id),
    challenger_user TEXT NOT NULL,
    challenged_user TEXT NOT NULL,
    setup         TEXT NOT NULL,             -- the game's setup as JSON: both sheets at the start
    seed          TEXT NOT NULL,             -- hex; published when the fight ends
    seed_hash     TEXT NOT NULL,             -- SHA-256 of the seed bytes, published when it starts
    recorded      INTEGER NOT NULL,          -- counts as the pair's practice fight of the day (R26)
    started_at    TEXT NOT NULL,
    ended_at      TEXT,
    winner_id     INTEGER REFERENCES knights(id),
    reason        TEXT,
    outcome       TEXT,                      -- the game's outcome as JSON
    tournament_id INTEGER REFERENCES tournaments(id),
    first_step    INTEGER,
    steps         INTEGER,
    winner_character INTEGER REFERENCES characters(id),
    CHECK ((game = 'psiknight') = (challenger_id IS NOT NULL AND challenged_id IS NOT NULL)),
    CHECK ((game = 'psiknight') = (challenger_character IS NULL AND challenged_character IS NULL))
);
INSERT INTO fights (id, realm_id, channel, game, kind, challenger_id, challenged_id,
        challenger_user, challenged_user, setup, seed, seed_hash, recorded, started_at, ended_at,
        winner_id, reason, outcome, tournament_id, first_step, steps)
    SELECT id, realm_id, channel, 'psiknight', kind, challenger_id, challenged_id,
        challenger_user, challenged_user, setup, seed, seed_hash, recorded, started_at, ended_at,
        winner_id, reason, outcome, tournament_id, first_step, steps
    FROM fights_copy;
DROP TABLE fights_copy;
CREATE INDEX fights_open ON fights (realm_id) WHERE ended_at IS NULL;
CREATE INDEX fights_of_character ON fights (challenger_character, challenged_character)
    WHERE challenger_character IS NOT NULL;
