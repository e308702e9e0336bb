-- PostgreSQL's form of ../0008_play.sql: the same tables, columns and constraints, with BIGINT for
-- SQLite's INTEGER (flags stay 0/1 integers, so the queries read the same on both).
-- A moderator's choice of how a channel's fights are told (`/narration compact|full`),
-- remembered like the channel's game; a channel without a row follows the configuration.
CREATE TABLE channel_narration (
    realm_id    BIGINT NOT NULL REFERENCES realms(id),
    channel     TEXT NOT NULL,
    narration   TEXT NOT NULL CHECK (narration IN ('compact', 'full')),
    set_by      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (realm_id, channel)
);
