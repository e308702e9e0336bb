-- PostgreSQL's form of ../0019_engaged_lazily.sql: a fight's end no longer deletes its claims;
-- the next start of a fighter takes over a claim whose fight has ended (`store/engaged.rs`).
DROP TRIGGER engaged_fighters_freed ON fights;
DROP FUNCTION engaged_fighters_freed();
