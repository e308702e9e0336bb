-- A moderator's choice of how a channel's fights are told (`/narration compact|full`),
-- remembered like the channel's game; a channel without a row follows the configuration.
CREATE TABLE channel_narration (
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    channel     TEXT NOT NULL,
    narration   TEXT NOT NULL CHECK (narration IN ('compact', 'full')),
    set_by      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (realm_id, channel)
);
