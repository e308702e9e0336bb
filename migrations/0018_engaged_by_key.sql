-- The claims of 0017 freed by key alone. 0017's one trigger compared each claim with a list
-- (`fighter_id IN (...)`), which SQLite builds as a temporary table for every fight's end, a
-- PsiKnight fight's included: most of the cost of an end. A fight of knights (0005's CHECK:
-- it names no character) frees its two knights by their keys; a fight of characters frees its
-- two leads by their keys, and a group fight (`fight_members`, 0009) the rest of its creatures.
DROP TRIGGER engaged_fighters_freed;

CREATE TRIGGER engaged_knights_freed AFTER UPDATE OF ended_at ON fights
WHEN NEW.ended_at IS NOT NULL AND NEW.challenger_id IS NOT NULL
BEGIN
    DELETE FROM engaged_fighters
        WHERE kind = 'knight' AND fighter_id = NEW.challenger_id AND fight_id = NEW.id;
    DELETE FROM engaged_fighters
        WHERE kind = 'knight' AND fighter_id = NEW.challenged_id AND fight_id = NEW.id;
END;

CREATE TRIGGER engaged_characters_freed AFTER UPDATE OF ended_at ON fights
WHEN NEW.ended_at IS NOT NULL AND NEW.challenger_id IS NULL
BEGIN
    DELETE FROM engaged_fighters
        WHERE kind = 'character' AND fighter_id = NEW.challenger_character AND fight_id = NEW.id;
    DELETE FROM engaged_fighters
        WHERE kind = 'character' AND fighter_id = NEW.challenged_character AND fight_id = NEW.id;
END;

CREATE TRIGGER engaged_members_freed AFTER UPDATE OF ended_at ON fights
WHEN NEW.ended_at IS NOT NULL AND EXISTS (SELECT 1 FROM fight_members WHERE fight_id = NEW.id)
BEGIN
    DELETE FROM engaged_fighters WHERE kind = 'character' AND fight_id = NEW.id
        AND fighter_id IN (SELECT character_id FROM fight_members WHERE fight_id = NEW.id);
END;
