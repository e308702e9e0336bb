-- PostgreSQL's form of ../0011_places.sql: the same columns and the same reading of old rows.
-- Where a channel lives. A realm may span several places (IRC networks, Discord guilds, the
-- console room), each served by one process; a fight and a tournament record the place of
-- their channel, as the transport names it (the IRC network, the Discord guild's id, `local`),
-- so a process restores only what its own places hold. Until now a realm was one place, named
-- like the realm: rows already here read as that place.
ALTER TABLE fights ADD COLUMN place TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN place TEXT NOT NULL DEFAULT '';
UPDATE fights SET place = (SELECT name FROM realms WHERE realms.id = fights.realm_id);
UPDATE tournaments SET place = (SELECT name FROM realms WHERE realms.id = tournaments.realm_id);
