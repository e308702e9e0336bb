-- The web's standings and knight pages count each knight's wins, losses and draws: the fights
-- a knight fought or won, found by index rather than by reading every fight.
CREATE INDEX fights_challenger ON fights (challenger_id);
CREATE INDEX fights_challenged ON fights (challenged_id);
CREATE INDEX fights_winner ON fights (winner_id);
