-- The ledger by realm and knight (0002) served the standings when they summed the ledger; they
-- read the kept sums now (0012), and every query of the ledger names a knight (`ledger_knight`,
-- 0001), an entry, a fight or a tournament. The index still took a new entry at every award,
-- on a page of its own knight's: at a busy realm's practice ends, a page or more of every
-- commit of the book writer, which no read ever used.
DROP INDEX ledger_realm_knight;
