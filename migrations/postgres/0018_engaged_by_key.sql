-- PostgreSQL's form of ../0018_engaged_by_key.sql: the claims of 0017 freed by key alone, in
-- the one trigger function: a fight of knights its two knights, a fight of characters its two
-- leads, and a group fight (`fight_members`) the rest of its creatures.
CREATE OR REPLACE FUNCTION engaged_fighters_freed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.challenger_id IS NOT NULL THEN
        DELETE FROM engaged_fighters
            WHERE kind = 'knight' AND fighter_id = NEW.challenger_id AND fight_id = NEW.id;
        DELETE FROM engaged_fighters
            WHERE kind = 'knight' AND fighter_id = NEW.challenged_id AND fight_id = NEW.id;
    ELSE
        DELETE FROM engaged_fighters
            WHERE kind = 'character' AND fighter_id = NEW.challenger_character
            AND fight_id = NEW.id;
        DELETE FROM engaged_fighters
            WHERE kind = 'character' AND fighter_id = NEW.challenged_character
            AND fight_id = NEW.id;
        IF EXISTS (SELECT 1 FROM fight_members WHERE fight_id = NEW.id) THEN
            DELETE FROM engaged_fighters WHERE kind = 'character' AND fight_id = NEW.id
                AND fighter_id IN (SELECT character_id FROM fight_members WHERE fight_id = NEW.id);
        END IF;
    END IF;
    RETURN NULL;
END $$;
