-- The claims of 0017 freed lazily: a fight's end no longer deletes its claims (0018's three
-- triggers ran at every end, and the claims' page was most of what an end wrote beyond the
-- fight's own row and the awards). A claim whose fight has ended holds nothing: the next start
-- of that fighter takes it over in its own transaction (`store/engaged.rs`), and a claim whose
-- fight is still open refuses the start as before. Claims of ended fights stay in the table
-- until then; readers of the claims join `fights` and keep those whose fight is open.
DROP TRIGGER engaged_knights_freed;
DROP TRIGGER engaged_characters_freed;
DROP TRIGGER engaged_members_freed;
