-- Tournaments (R34–R39): what moderators schedule, who enters, the reminders already sent, and a
-- tournament in progress as the engine's values (its Lists and Melee as JSON), so a restart
-- carries on where it stood. Awards go to the ledger of 0001, naming the tournament.

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    realm_id       INTEGER NOT NULL REFERENCES realms(id),
    name           TEXT NOT NULL,
    channel        TEXT NOT NULL,            -- where it is held
    host           TEXT,                     -- a monarch or a noble sponsor, as the moderator typed it
    starts_at      TEXT NOT NULL,            -- RFC 3339, UTC
    month          TEXT NOT NULL,            -- YYYY-MM of the start in the realm's time zone (R38)
    melee          INTEGER NOT NULL,         -- a Melee follows the Lists
    remount        INTEGER NOT NULL,         -- one remount per knight in the Melee (R37)
    melee_minutes  INTEGER NOT NULL,         -- the Melee's time limit
    seed           TEXT NOT NULL,            -- hex; the dice of the Lists draws (R34, R130)
    scheduled_by   TEXT NOT NULL,
    scheduled_at   TEXT NOT NULL,
    -- The one-a-month rule overridden (R38, R139): how many tournaments the month already had.
    overrode       INTEGER,
    status         TEXT NOT NULL CHECK (status IN ('scheduled', 'running', 'finished', 'cancelled')),
    state          TEXT,                     -- the running tournament as JSON (Lists, Melee, dice)
    ended_at       TEXT,
    ended_by       TEXT                      -- who cancelled it, when cancelled
);
CREATE INDEX tournaments_active ON tournaments (realm_id) WHERE status IN ('scheduled', 'running');
CREATE INDEX tournaments_month ON tournaments (realm_id, month);

CREATE TABLE tournament_entries (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    knight_id      INTEGER NOT NULL REFERENCES knights(id),
    user_name      TEXT NOT NULL,
    at             TEXT NOT NULL,
    PRIMARY KEY (tournament_id, knight_id)
);

-- A reminder is claimed here before it is said, so none is said twice, even across a restart.
CREATE TABLE tournament_reminders (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    lead_secs      INTEGER NOT NULL,         -- how long before the start it was due
    sent_at        TEXT NOT NULL,
    PRIMARY KEY (tournament_id, lead_secs)
);

-- A Lists match or a Melee pass is a fight of its tournament.
ALTER TABLE fights ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
-- Tournament awards name their tournament (kind 'tournament').
ALTER TABLE ledger ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
