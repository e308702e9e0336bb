//! The whole picture (issue 15, item 10): where each fighter of a fight stands, for `/status`,
//! and where a knight stands in the books, for `/knight NAME`. The rules are the engine's:
//! titles and lands come from [`books::advance`] and [`books::land_from_monarch`], so each rule
//! is written once.

use super::render::{injury_short, Names};
use crate::app::App;
use crate::store::{Id, KnightRecord};
use anyhow::Result;
use chrono::{DateTime, Utc};
use herald_engine::psiknight::books::{self, Realm};
use herald_engine::psiknight::knight::Rank;
use herald_engine::psiknight::{Match, Side};

/// Each fighter's Bonus, psi attempts left and injuries: "Dame Dara: Bonus +10 to weaken, 1
/// psi attempt left this pass, injured: weapon arm · Sir Eoin: no Bonus, ...". The psi a
/// fighter has armed is theirs alone to know, so the channel is not told it.
pub fn fight_standing(m: &Match, names: &Names) -> String {
    let fighters: Vec<String> = Side::BOTH
        .into_iter()
        .map(|s| {
            let bonus = match m.bonus(s) {
                (0, _) => "no Bonus".to_string(),
                (b, mode) => format!("Bonus +{b} to {}", mode.name()),
            };
            let left = m.psi_attempts_left(s);
            let psi = format!(
                "{left} psi attempt{} left {}",
                if left == 1 { "" } else { "s" },
                if m.in_swordplay() {
                    "in Swordplay (R20)"
                } else {
                    "this pass (R20)"
                }
            );
            let injuries = m.injuries(s);
            let hurt = if injuries.is_empty() {
                "unhurt".to_string()
            } else {
                format!(
                    "injured: {}",
                    injuries
                        .into_iter()
                        .map(injury_short)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            format!("{}: {bonus}, {psi}, {hurt}", names[s.index()])
        })
        .collect();
    format!("{}.", fighters.join(crate::narration::CLAUSE))
}

/// A knight's place in the books: lord and vassals, hostilities, captivity, the day's injury,
/// the title and what the next one needs.
pub async fn knight_standing(
    app: &App,
    realm: Id,
    knight: &KnightRecord,
    now: DateTime<Utc>,
) -> Result<String> {
    let view = app.store.books_view(realm).await?;
    let injured = app
        .store
        .injured_on(knight.id, &app.day_in(realm, now))
        .await?;
    Ok(standing(&view.realm, knight.id, injured))
}

/// [`knight_standing`] from the books' view.
fn standing(realm: &Realm, id: Id, injured: bool) -> String {
    let Ok(h) = realm.get(id) else {
        return String::new();
    };
    let names = |ids: Vec<Id>| {
        ids.into_iter()
            .map(|k| realm.styled(k))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    parts.push(match h.lord {
        Some(l) => format!("vassal of {}", realm.styled(l)),
        None => "sworn to the monarch alone".to_string(),
    });
    let vassals: Vec<Id> = realm.vassals(id).collect();
    parts.push(if vassals.is_empty() {
        "no vassals".to_string()
    } else {
        format!("vassals: {}", names(vassals))
    });
    let hostile: Vec<Id> = realm
        .hostilities
        .iter()
        .filter_map(|&(a, b)| match (a == id, b == id) {
            (true, _) => Some(b),
            (_, true) => Some(a),
            _ => None,
        })
        .collect();
    parts.push(if hostile.is_empty() {
        "no hostilities".to_string()
    } else {
        format!("hostile to {}", names(hostile))
    });
    if let Some(c) = realm.captivities.get(&id) {
        let ransom = match c.outstanding() {
            None => "ransom refused".to_string(),
            Some(left) => format!("ransom {left} PP still to pay"),
        };
        parts.push(format!(
            "captive of {} ({ransom}; R33)",
            realm.styled(c.victor)
        ));
    }
    let captives: Vec<Id> = realm
        .captivities
        .values()
        .filter(|c| c.victor == id)
        .map(|c| c.captive)
        .collect();
    if !captives.is_empty() {
        parts.push(format!("holds captive {}", names(captives)));
    }
    if injured {
        parts.push("out for the rest of the day with a major injury (R12)".to_string());
    }
    let title = match h.rank {
        Rank::Knight => "untitled".to_string(),
        rank => format!("titled {}", rank.title(h.style)),
    };
    parts.push(format!("{title}; {}", next_title(realm, id)));
    format!("{}: {}.", h.styled(), parts.join("; "))
}

/// What the next title needs, as the engine's rules say it (R31, R32, R103).
fn next_title(realm: &Realm, id: Id) -> String {
    let Ok(h) = realm.get(id) else {
        return String::new();
    };
    let Some(next) = books::next_rank(h.rank) else {
        return "the highest rank (R32)".to_string();
    };
    let title = next.title(h.style);
    let pp = books::title_threshold(next);
    if !h.landed {
        let lands = match books::land_from_monarch(realm, id) {
            Ok(_) => format!(
                "lands, which the monarch grants now for {} HP (/land)",
                books::LAND_COST_HP
            ),
            Err(e) => format!("lands first: {e}"),
        };
        return format!("next, {title} needs {lands}, then {pp} PP for advancement (R32)");
    }
    match books::advance(realm, id) {
        Ok(rank) => format!("{} may be asked for now (/advance)", rank.title(h.style)),
        Err(e) => format!("next, {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use books::{Holding, Points};
    use herald_engine::psiknight::knight::Style;

    fn holding(name: &str, hp: i64, pp: i64, landed: bool) -> Holding {
        let mut h = Holding::new(name, Style::Sir);
        h.hp = Points::whole(hp);
        h.pp = Points::whole(pp);
        h.landed = landed;
        h
    }

    // R31, R32: an unlanded knight's next title needs lands (12 HP from the monarch) first.
    #[test]
    fn r31_an_unlanded_knights_next_title_needs_lands_first() {
        let mut realm = Realm::new();
        realm.insert(1, holding("Alan", 5, 0, false));
        let line = standing(&realm, 1, false);
        assert!(line.starts_with("Sir Alan: sworn to the monarch alone; no vassals; no hostilities; untitled; next, Baron needs lands first: a grant of lands from the monarch costs 12 HP; Sir Alan has 5"), "{line}");
        assert!(
            line.ends_with("then 20 PP for advancement (R32)."),
            "{line}"
        );
    }

    // R32, R102: a landed knight is told the PP the next title needs, or that it may be asked.
    #[test]
    fn r32_a_landed_knight_is_told_the_pp_of_the_next_title() {
        let mut realm = Realm::new();
        realm.insert(1, holding("Alan", 0, 5, true));
        let mut baron = holding("Bors", 0, 25, true);
        baron.rank = Rank::Baron;
        realm.insert(2, baron);
        realm.knights.get_mut(&1).unwrap().lord = Some(2);
        let line = standing(&realm, 1, true);
        assert!(line.contains("vassal of Baron Bors"), "{line}");
        assert!(line.contains("major injury (R12)"), "{line}");
        assert!(
            line.contains("next, Baron needs 20 PP for advancement; Sir Alan counts 5 (R32)"),
            "{line}"
        );
        let line = standing(&realm, 2, false);
        assert!(line.contains("vassals: Sir Alan"), "{line}");
        assert!(line.contains("Viscount needs 80 PP"), "{line}");
    }
}
