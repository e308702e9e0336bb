-- One player, several accounts: `/link` gives an account a one-time code (valid 10 minutes);
-- `/link CODE` typed by another account (another platform) joins that account, the member, to
-- the first, the account: the member then plays as the account (its knight and every game's
-- characters) until `/unlink`. A member is linked to one account; an account is no member.
CREATE TABLE account_links (
    id          INTEGER PRIMARY KEY,
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    member      TEXT NOT NULL,           -- the account that typed the code
    account     TEXT NOT NULL,           -- the account that asked for it
    at          TEXT NOT NULL,
    UNIQUE (realm_id, member)
);
CREATE INDEX account_links_account ON account_links (realm_id, account);

CREATE TABLE link_codes (
    id          INTEGER PRIMARY KEY,
    realm_id    INTEGER NOT NULL REFERENCES realms(id),
    code        TEXT NOT NULL,
    account     TEXT NOT NULL,           -- who asked for it
    expires_at  TEXT NOT NULL,           -- RFC 3339, UTC
    used_by     TEXT,                    -- who typed it, once used
    used_at     TEXT,
    UNIQUE (realm_id, code)
);
