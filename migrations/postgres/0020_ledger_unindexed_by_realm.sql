-- PostgreSQL's form of ../0020_ledger_unindexed_by_realm.sql: no query reads the ledger by realm
-- and knight, and the index took an entry at every award.
DROP INDEX ledger_realm_knight;
