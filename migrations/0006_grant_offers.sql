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
