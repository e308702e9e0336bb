//! A small harness for Psi Morphs tests: morphs by the page's options, scripted dice, every
//! event kept as the JSON the page lists (fighters by name), and the page's compact rendering.
#![allow(dead_code)]

use herald_engine::dice::ScriptedDice;
use herald_engine::game::Side;
use herald_engine::psimorphs::{
    parse_pairs, Decision, Entrant, Event, FightSetup, ForceId, Group, MorphFight, MorphSheet,
    MorphState, NewMorph, RuleError, Tables, NAME_FIELDS,
};
use serde_json::Value;

pub use Side::{Challenged as B, Challenger as A};

/// A morph from the page's options: `attrs` in sheet order, `ranks` and `isp` as `G:N,...`.
pub fn morph(
    attrs: [u32; 6],
    ranks: &str,
    master: &str,
    isp: Option<&str>,
    npc: bool,
) -> MorphSheet {
    NewMorph {
        attributes: attrs.map(Some),
        ranks: Some(parse_pairs(ranks).expect("ranks")),
        master: (!master.is_empty()).then(|| parse_pairs(master).expect("master")),
        isp: isp.map(|i| parse_pairs(i).expect("isp")),
        ..NewMorph::default()
    }
    .create(npc, &Tables::default().budget)
    .expect("a legal sheet")
}

/// Ann of the worked example.
pub fn ann() -> MorphSheet {
    morph(
        [5, 4, 3, 3, 3, 3],
        "combat:3,physical:1,energy:3,atom:1",
        "combat:1",
        None,
        false,
    )
}

/// Bo of the worked example.
pub fn bo() -> MorphSheet {
    morph(
        [3, 4, 4, 4, 3, 3],
        "combat:2,physical:3,mental:1,energy:2",
        "",
        Some("energy:2,general:3"),
        false,
    )
}

/// An entrant, full on day 2026-12-01; `owner` None makes an NPC.
pub fn entrant(name: &str, owner: Option<&str>, sheet: MorphSheet) -> Entrant {
    Entrant {
        name: name.into(),
        owner: owner.map(str::to_string),
        state: MorphState::fresh(&sheet, "2026-12-01"),
        sheet,
    }
}

/// A fight under test: the fight, its scripted dice and every event as JSON.
pub struct Harness {
    pub fight: MorphFight,
    pub dice: ScriptedDice,
    pub names: [String; 2],
    pub events: Vec<Value>,
}

/// The JSON of an event with fighters named, as the bot writes it.
pub fn named(e: &Event, names: &[String; 2]) -> Value {
    let mut v = serde_json::to_value(e).expect("serializes");
    name_sides(&mut v, names);
    v
}

fn name_sides(v: &mut Value, names: &[String; 2]) {
    let side = |v: &mut Value| {
        if let Value::String(s) = v {
            match s.as_str() {
                "challenger" => *s = names[0].clone(),
                "challenged" => *s = names[1].clone(),
                _ => {}
            }
        }
    };
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if NAME_FIELDS.contains(&k.as_str()) {
                    match x {
                        Value::Array(items) => items.iter_mut().for_each(side),
                        other => side(other),
                    }
                } else {
                    name_sides(x, names);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| name_sides(x, names)),
        _ => {}
    }
}

impl Harness {
    /// Starts a fight of the two on `tables`.
    pub fn new(a: Entrant, b: Entrant, tables: Tables) -> Harness {
        let names = [a.name.clone(), b.name.clone()];
        let mut dice = ScriptedDice::new([]);
        let mut events = Vec::new();
        let fight = MorphFight::start_into(
            FightSetup {
                morphs: [a, b],
                tables,
            },
            &mut dice,
            &mut events,
        );
        let events = events.iter().map(|e| named(e, &names)).collect();
        Harness {
            fight,
            dice,
            names,
            events,
        }
    }

    /// Ann against Bo, two players, on the default tables.
    pub fn example() -> Harness {
        Harness::new(
            entrant("Ann", Some("ann"), ann()),
            entrant("Bo", Some("bo"), bo()),
            Tables::default(),
        )
    }

    /// Decides with `dice` queued; returns the new events as JSON.
    pub fn go(&mut self, side: Side, d: Decision, dice: &[u32]) -> Result<Vec<Value>, RuleError> {
        self.dice.push(dice.iter().copied());
        let mut out = Vec::new();
        let r = self.fight.decide_into(side, d, &mut self.dice, &mut out);
        let new: Vec<Value> = out.iter().map(|e| named(e, &self.names)).collect();
        self.events.extend(new.iter().cloned());
        r.map(|()| new)
    }

    /// As [`Harness::go`], which must succeed and use every die.
    pub fn ok(&mut self, side: Side, d: Decision, dice: &[u32]) -> Vec<Value> {
        let new = self
            .go(side, d, dice)
            .unwrap_or_else(|e| panic!("{d} refused: {e}"));
        assert_eq!(self.dice.remaining(), 0, "dice left after {d}");
        new
    }

    /// The compact lines of every event so far.
    pub fn compact(&self) -> Vec<String> {
        self.events.iter().map(compact).collect()
    }

    /// Whether an event of this type was emitted.
    pub fn has(&self, ty: &str) -> bool {
        self.events.iter().any(|e| e["type"] == ty)
    }

    /// The events of one type.
    pub fn of(&self, ty: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["type"] == ty).collect()
    }
}

/// A force id.
pub fn fid(s: &str) -> ForceId {
    ForceId::new(s).expect("a force id")
}

/// Shorthands for decisions.
pub fn attack(isp: u16) -> Decision {
    Decision::Attack { isp }
}
pub fn defend(group: Group, isp: u16) -> Decision {
    Decision::Defend { group, isp }
}
pub fn resist(group: Group, isp: u16) -> Decision {
    Decision::Resist { group, isp }
}
pub fn force(id: &str, isp: u16) -> Decision {
    Decision::Force {
        force: fid(id),
        isp,
    }
}

fn isp_list(v: &Value) -> String {
    let m = v.as_object().expect("an isp map");
    if m.is_empty() {
        return "none".into();
    }
    m.iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn s(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        other => other.to_string(),
    }
}

fn short(attr: &Value) -> String {
    s(attr).chars().take(3).collect()
}

/// The page's compact rendering of one event (the model's `example --compact`).
pub fn compact(e: &Value) -> String {
    let t = e["type"].as_str().unwrap_or("?");
    match t {
        "fight_started" => format!(
            "fight_started {} v {}, order {}, {}",
            s(&e["challenger"]),
            s(&e["challenged"]),
            s(&e["order"][0]),
            s(&e["order"][1])
        ),
        "round_started" => format!("round_started {}", e["round"]),
        "turn" => format!("turn {}, round {}", s(&e["name"]), e["round"]),
        "turn_skipped" => format!(
            "turn_skipped {}, round {}, {}",
            s(&e["name"]),
            e["round"],
            s(&e["reason"])
        ),
        "attack_declared" => format!(
            "attack_declared {} -> {}, isp {}",
            s(&e["attacker"]),
            s(&e["defender"]),
            e["isp"]
        ),
        "defense_chosen" | "resist_chosen" => {
            format!("{t} {} {}, isp {}", s(&e["name"]), s(&e["group"]), e["isp"])
        }
        "isp_spent" => format!(
            "isp_spent {} {} {} ({}), left {}",
            s(&e["name"]),
            s(&e["purpose"]),
            e["amount"],
            isp_list(&e["taken"]),
            isp_list(&e["left"])
        ),
        "check" => {
            let dice: String = e["dice"]
                .as_array()
                .expect("dice")
                .iter()
                .map(|c| {
                    let faces: Vec<String> = c
                        .as_array()
                        .expect("a chain")
                        .iter()
                        .map(|f| f.to_string())
                        .collect();
                    format!("[{}]", faces.join(","))
                })
                .collect();
            let against = if e["opposing"].is_null() {
                format!("vs {}", e["difficulty"])
            } else {
                format!("vs {} {}", s(&e["opposing"]), e["opposing_total"])
            };
            let attempt = if e["attempt"] == 1 {
                String::new()
            } else {
                format!(" (attempt {})", e["attempt"])
            };
            format!(
                "check {} {} {}/{} {dice}={} +{} ({}+{}+{}+{}) = {}, thr {}, {against}: {}{attempt}",
                s(&e["name"]),
                s(&e["purpose"]),
                s(&e["group"]),
                short(&e["attribute"]),
                e["dice_total"],
                e["modifier"],
                e["level"],
                e["ranks"],
                e["half"],
                e["isp"],
                e["total"],
                e["threshold"],
                if e["success"] == true { "success" } else { "failure" }
            )
        }
        "opposed" => {
            let tie = if e["tie"] == true {
                format!(" (tie, {})", s(&e["tie_rule"]))
            } else {
                String::new()
            };
            format!(
                "opposed {} {} {}, {} {}: winner {}{tie}, against {}",
                s(&e["purpose"]),
                s(&e["a"]),
                e["a_total"],
                s(&e["b"]),
                e["b_total"],
                s(&e["winner"]),
                s(&e["against"])
            )
        }
        "kept" => format!("kept {} {}", s(&e["name"]), e["total"]),
        "miss" => format!(
            "miss {} -> {} {} v {}",
            s(&e["attacker"]),
            s(&e["defender"]),
            e["attacker_total"],
            e["defender_total"]
        ),
        "hit" => format!(
            "hit {} -> {} {} v {}, strength {}, {}damage {}, hp {} -> {}",
            s(&e["attacker"]),
            s(&e["defender"]),
            e["attacker_total"],
            e["defender_total"],
            e["strength"],
            if e["critical"] == true {
                "critical, "
            } else {
                ""
            },
            e["damage"],
            e["hp_before"],
            e["hp_after"]
        ),
        "passed" | "yielded" => format!("{t} {}", s(&e["name"])),
        "force_declared" => format!(
            "force_declared {} {} -> {}, DC {}, {} {} FP ({} left), isp {}",
            s(&e["name"]),
            s(&e["force"]),
            s(&e["target"]),
            e["difficulty"],
            e["fp_cost"],
            s(&e["force_type"]).to_uppercase(),
            e["fp_left"],
            e["isp"]
        ),
        "force_failed" => format!(
            "force_failed {} {} {} vs {}",
            s(&e["name"]),
            s(&e["force"]),
            e["total"],
            e["difficulty"]
        ),
        "force_resisted" => format!(
            "force_resisted {} {} by {}",
            s(&e["name"]),
            s(&e["force"]),
            s(&e["target"])
        ),
        "force_damage" => format!(
            "force_damage {} {} -> {} {}, hp {} -> {}",
            s(&e["name"]),
            s(&e["force"]),
            s(&e["target"]),
            e["damage"],
            e["hp_before"],
            e["hp_after"]
        ),
        "healed" => format!(
            "healed {} {} -> {} {}, hp {} -> {}",
            s(&e["name"]),
            s(&e["force"]),
            s(&e["target"]),
            e["amount"],
            e["hp_before"],
            e["hp_after"]
        ),
        "maintained" => {
            let (attr, n) = e["modifier"]
                .as_object()
                .and_then(|m| m.iter().next())
                .map(|(k, v)| (k.clone(), v.to_string()))
                .expect("a modifier");
            let kind = if e["force"]
                .as_str()
                .is_some_and(|f| ["as1", "hs1", "ll1"].contains(&f))
            {
                "PA"
            } else {
                "PE"
            };
            format!(
                "maintained {} {} on {} {attr} {n}: {} {}, {} of {} {kind}",
                s(&e["name"]),
                s(&e["force"]),
                s(&e["target"]),
                s(&e["attribute"]),
                e["effective"],
                e["maintained"],
                e["limit"]
            )
        }
        "force_ended" => format!(
            "force_ended {} by {} on {}, {}: {} {}",
            s(&e["force"]),
            s(&e["by"]),
            s(&e["on"]),
            s(&e["reason"]),
            s(&e["attribute"]),
            e["effective"]
        ),
        "forces_available" => format!(
            "forces_available {}, round {}: {}",
            s(&e["name"]),
            e["round"],
            e["forces"]
                .as_array()
                .map(|a| a.iter().map(s).collect::<Vec<_>>().join(", "))
                .unwrap_or_default()
        ),
        "unconscious" | "died" => {
            format!("{t} {}, hp {} of {}", s(&e["name"]), e["hp"], e["max_hp"])
        }
        "fight_ended" => format!(
            "fight_ended winner {}, loser {}, {}, round {}",
            s(&e["winner"]),
            s(&e["loser"]),
            s(&e["reason"]),
            e["rounds"]
        ),
        "recovered" => format!("recovered {}, hp {}", s(&e["name"]), e["hp"]),
        other => other.to_string(),
    }
}
