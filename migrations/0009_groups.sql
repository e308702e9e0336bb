-- Group fights (psionic combat's up to three a side, PC33): every creature of a fight of more
-- than two, in listing order (the challenger, its allies, the foes), with its side (0 the
-- challenger's, 1 the foes') and who spoke for it (player). A duel keeps its two in the fights table
-- alone; a group fight names its leads there too (the challenger and the first foe).
CREATE TABLE fight_members (
    fight_id     INTEGER NOT NULL REFERENCES fights(id),
    side         INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    character_id INTEGER NOT NULL REFERENCES characters(id),
    player       TEXT NOT NULL,
    PRIMARY KEY (fight_id, seat)
);
