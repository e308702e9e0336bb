-- The books between fights: allegiance, hostility, offers, capture and ransom (R29–R33), with
-- their history, so that a grievance or a refused duty can be read back from the books (R150,
-- R151, R152). Points still move only through the append-only ledger of 0001.

-- The vassal has raised a ransom for their present lord: the once of R33 is used (R108).
ALTER TABLE knights ADD COLUMN ransomed_lord INTEGER NOT NULL DEFAULT 0;
-- Killed in captivity (R33, R109); a dead knight is also retired.
ALTER TABLE knights ADD COLUMN died_at TEXT;

-- Every allegiance to a player noble, past and present. knights.lord_id is the present one; this
-- keeps when each began and how it ended. Reasons are the engine's Reason as JSON.
CREATE TABLE allegiances (
    id           INTEGER PRIMARY KEY,
    realm_id     INTEGER NOT NULL REFERENCES realms(id),
    vassal_id    INTEGER NOT NULL REFERENCES knights(id),
    lord_id      INTEGER NOT NULL REFERENCES knights(id),
    began_at     TEXT NOT NULL,
    began_reason TEXT NOT NULL,
    ended_at     TEXT,
    ended_reason TEXT
);
CREATE UNIQUE INDEX allegiances_open ON allegiances (vassal_id) WHERE ended_at IS NULL;
CREATE INDEX allegiances_lord ON allegiances (lord_id);

-- Every state of hostility, past and present (R33). knight_lo < knight_hi.
CREATE TABLE hostilities (
    id           INTEGER PRIMARY KEY,
    realm_id     INTEGER NOT NULL REFERENCES realms(id),
    knight_lo    INTEGER NOT NULL REFERENCES knights(id),
    knight_hi    INTEGER NOT NULL REFERENCES knights(id),
    declared_by  INTEGER REFERENCES knights(id),
    reason       TEXT NOT NULL,
    began_at     TEXT NOT NULL,
    ended_at     TEXT,
    ended_reason TEXT,
    CHECK (knight_lo < knight_hi)
);
CREATE UNIQUE INDEX hostilities_open ON hostilities (knight_lo, knight_hi) WHERE ended_at IS NULL;
CREATE INDEX hostilities_declared ON hostilities (declared_by);

-- Offers awaiting an answer: allegiance, release by mutual consent, an end to hostility.
CREATE TABLE offers (
    realm_id     INTEGER NOT NULL REFERENCES realms(id),
    from_id      INTEGER NOT NULL REFERENCES knights(id),
    to_id        INTEGER NOT NULL REFERENCES knights(id),
    act          TEXT NOT NULL CHECK (act IN ('allegiance', 'release', 'peace')),
    at           TEXT NOT NULL,
    PRIMARY KEY (from_id, to_id, act)
);
CREATE INDEX offers_to ON offers (to_id);

-- Practice fights fought for ransom, decided when the fight starts (R33, R156).
CREATE TABLE ransom_fights (
    fight_id     INTEGER PRIMARY KEY REFERENCES fights(id),
    at           TEXT NOT NULL
);

-- Captives, past and present (R33). demanded_halves NULL: the victor refuses ransom.
CREATE TABLE captivities (
    id               INTEGER PRIMARY KEY,
    realm_id         INTEGER NOT NULL REFERENCES realms(id),
    captive_id       INTEGER NOT NULL REFERENCES knights(id),
    victor_id        INTEGER NOT NULL REFERENCES knights(id),
    fight_id         INTEGER UNIQUE REFERENCES fights(id),
    under_hostility  INTEGER NOT NULL,
    customary_halves INTEGER NOT NULL,
    demanded_halves  INTEGER,
    began_at         TEXT NOT NULL,
    ended_at         TEXT,
    ended_how        TEXT CHECK (ended_how IN ('paid', 'freed', 'killed', 'retired'))
);
CREATE UNIQUE INDEX captivities_open ON captivities (captive_id) WHERE ended_at IS NULL;
CREATE INDEX captivities_victor ON captivities (victor_id) WHERE ended_at IS NULL;

-- Each payment toward a ransom, with the ledger entry that moved the PP.
CREATE TABLE ransom_payments (
    id            INTEGER PRIMARY KEY,
    captivity_id  INTEGER NOT NULL REFERENCES captivities(id),
    payer_id      INTEGER NOT NULL REFERENCES knights(id),
    halves        INTEGER NOT NULL CHECK (halves > 0),
    ledger_id     INTEGER NOT NULL REFERENCES ledger(id),
    at            TEXT NOT NULL
);
CREATE INDEX ransom_payments_captivity ON ransom_payments (captivity_id);

-- What the books hold against an allegiance: a refused duty of the vassal (R106, R152), which
-- lets the lord dismiss them, or a failure of the lord (R33, R151), which lets the vassal renounce.
CREATE TABLE allegiance_marks (
    id             INTEGER PRIMARY KEY,
    allegiance_id  INTEGER NOT NULL REFERENCES allegiances(id),
    kind           TEXT NOT NULL CHECK (kind IN ('unapproved_hostility', 'unpaid_ransom', 'lord_broke', 'lord_failed_ransom')),
    detail         TEXT NOT NULL,
    at             TEXT NOT NULL
);
CREATE INDEX allegiance_marks_allegiance ON allegiance_marks (allegiance_id);

-- An entry is revoked at most once, whatever the race (R153).
CREATE UNIQUE INDEX ledger_revoked_once ON ledger (revokes) WHERE revokes IS NOT NULL;
-- Standings and realm views sum the ledger by knight.
CREATE INDEX ledger_realm_knight ON ledger (realm_id, knight_id);
