//! Events: what happened in a match, as data. The bot renders them as narration, tests assert on
//! them, and a replay re-derives them. Their serialized form (a `"type"` field in snake_case) is a
//! contract read by `herald script --events`.
//!
//! Events name knights by [`Side`]; [`Event::named`] swaps in display names for output.

use super::decision::{BonusMode, Side};
use super::knight::PsiSkill;
use serde::{Deserialize, Serialize};

/// What a fighter rolls against: a fighting skill, or Luck (R15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RollSkill {
    /// Lance.
    Lance,
    /// Ride.
    Ride,
    /// Observe.
    Observe,
    /// Shield.
    Shield,
    /// Dodge.
    Dodge,
    /// Sword.
    Sword,
    /// Luck, a flat 10 (Swordplay 2B).
    Luck,
}

impl RollSkill {
    /// The capitalised name used in narration.
    pub fn title(self) -> &'static str {
        match self {
            RollSkill::Lance => "Lance",
            RollSkill::Ride => "Ride",
            RollSkill::Observe => "Observe",
            RollSkill::Shield => "Shield",
            RollSkill::Dodge => "Dodge",
            RollSkill::Sword => "Sword",
            RollSkill::Luck => "Luck",
        }
    }
}

/// Why an effective skill differs from the base skill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModKind {
    /// Joust 7A: +25 to Lance when sweeping.
    Sweep,
    /// Swordplay 2A: +25 to Sword for a Press.
    Press,
    /// Swordplay 2B: −20 to Sword for a Parry.
    Parry,
    /// Apportation's ±25.
    Apportation,
    /// Hypercognition's ±25 to Dodge.
    Hypercognition,
    /// Telepathy's ±25 to Ride.
    Telepathy,
    /// The roller's own Bonus in `attack` mode (R5).
    BonusAttack,
    /// The roller's own Bonus in `defend` mode (R5).
    BonusDefend,
    /// The opponent's Bonus in `weaken` mode, subtracted (R5).
    Weakened,
    /// A weapon-arm injury halves Sword (R2, drop fractions).
    WeaponArm,
}

impl ModKind {
    /// How narration names the modifier: "sweep", "Apportation", "Bonus".
    pub fn label(self) -> &'static str {
        match self {
            ModKind::Sweep => "sweep",
            ModKind::Press => "press",
            ModKind::Parry => "parry",
            ModKind::Apportation => "Apportation",
            ModKind::Hypercognition => "Hypercognition",
            ModKind::Telepathy => "Telepathy",
            ModKind::BonusAttack => "Bonus",
            ModKind::BonusDefend => "Bonus",
            ModKind::Weakened => "opponent's Bonus",
            ModKind::WeaponArm => "weapon arm halved",
        }
    }
}

/// One modifier applied to a roll's target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Modifier {
    /// Why.
    pub kind: ModKind,
    /// How much, signed.
    pub value: i32,
}

/// The most modifiers one roll can have (a Parry: weapon arm, −20, Apportation, both Bonuses).
pub const MAX_MODIFIERS: usize = 5;

/// The modifiers of one roll, in the order applied; kept inline (no allocation per roll).
/// Serialized as a list.
#[derive(Clone, Copy)]
pub struct Modifiers {
    len: u8,
    items: [Modifier; MAX_MODIFIERS],
}

impl Modifiers {
    const NONE: Modifier = Modifier {
        kind: ModKind::Sweep,
        value: 0,
    };

    /// No modifiers.
    pub const fn new() -> Self {
        Modifiers {
            len: 0,
            items: [Self::NONE; MAX_MODIFIERS],
        }
    }

    /// Adds a modifier; one past [`MAX_MODIFIERS`] would be an engine bug and is dropped.
    #[inline]
    pub fn push(&mut self, m: Modifier) {
        debug_assert!((self.len as usize) < MAX_MODIFIERS, "too many modifiers");
        if let Some(slot) = self.items.get_mut(self.len as usize) {
            *slot = m;
            self.len += 1;
        }
    }

    /// The sum of their values.
    #[inline]
    pub fn total(&self) -> i32 {
        self.iter().map(|m| m.value).sum()
    }
}

impl Default for Modifiers {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for Modifiers {
    type Target = [Modifier];
    fn deref(&self) -> &[Modifier] {
        &self.items[..self.len as usize]
    }
}

impl PartialEq for Modifiers {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Modifiers {}

impl std::fmt::Debug for Modifiers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Modifier> for Modifiers {
    fn from_iter<I: IntoIterator<Item = Modifier>>(iter: I) -> Self {
        let mut m = Modifiers::new();
        for x in iter.into_iter().take(MAX_MODIFIERS) {
            m.push(x);
        }
        m
    }
}

impl Serialize for Modifiers {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Modifiers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<Modifier>::deserialize(d)?;
        if v.len() > MAX_MODIFIERS {
            return Err(serde::de::Error::invalid_length(
                v.len(),
                &"at most 5 modifiers",
            ));
        }
        Ok(v.into_iter().collect())
    }
}

/// Joust step 7: where the lance is aimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Height {
    /// The defender rolls Shield, limited (7B1).
    High,
    /// The defender rolls Ride, limited (7B2).
    Low,
}

/// Swordplay 2A: the action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Roll Sword.
    Attack,
    /// Roll Observe, to earn a Bonus.
    Observe,
    /// Roll Sword +25; Luck is your next counter.
    Press,
}

/// Swordplay 2B: the defender's counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Counter {
    /// Roll Shield.
    Block,
    /// Roll Dodge.
    Dodge,
    /// Roll Sword −20.
    Parry,
    /// Roll Luck (10), forced after your own Press (R15).
    Luck,
}

/// A lasting injury (Joust step 9, the Swordplay damage table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Injury {
    /// No Block, Sword halved.
    WeaponArm,
    /// No Block.
    ShieldArm,
    /// No Dodge.
    Legs,
    /// Out of every fight for the rest of the day (R12).
    Major,
}

/// The Swordplay damage table (2D).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DamageResult {
    /// 01–22: the defender loses.
    Kill,
    /// 23–30.
    WeaponArm,
    /// 31–33.
    ShieldArm,
    /// 34–50.
    Legs,
    /// 51–00: armor protected the defender.
    Armor,
}

impl DamageResult {
    /// The table of Swordplay 2D.
    pub fn from_roll(roll: u32) -> DamageResult {
        match roll {
            0..=22 => DamageResult::Kill,
            23..=30 => DamageResult::WeaponArm,
            31..=33 => DamageResult::ShieldArm,
            34..=50 => DamageResult::Legs,
            _ => DamageResult::Armor,
        }
    }
}

/// Which rule of Joust step 6 decided first strike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstStrikeRule {
    /// 6A: one fighter swept, the other strikes first.
    Sweep,
    /// 6B: the fighter with a Bonus strikes first.
    Bonus,
    /// 6C: the higher of unmodified Lance and Ride (R9).
    Skill,
    /// 6D: all tied; both strike, challenger first, both may fall.
    Both,
}

/// Which rule of Swordplay step 1 decided the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayerRule {
    /// 1A: the fighter just unhorsed goes first.
    Unhorsed,
    /// 1B: the fighter just challenged goes first (no Joust).
    Challenged,
    /// 1C: a d100 roll-off, low goes first (R14).
    RollOff,
}

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The loser was unhorsed in the Joust and no Swordplay followed.
    Unhorsed,
    /// Both fell in a 6D pass and no Swordplay followed: a draw (R13, R27).
    BothUnhorsed,
    /// Three passes without an unhorsing and no Swordplay followed: a draw (R27).
    NoUnhorsing,
    /// A major injury that CPK did not cancel ended the match (R12).
    MajorInjury,
    /// The damage table's KILL (01–22).
    Kill,
    /// A second arm hit of any kind counts as a Kill (R17).
    SecondArmHit,
    /// The loser yielded (R19).
    Yield,
    /// A melee pass is one Joust pass; its result is who fell (R37).
    PassOver,
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winner; `None` for a draw, or a melee pass in which neither or both fell.
    pub winner: Option<Side>,
    /// Why the match ended.
    pub reason: EndReason,
    /// Who was unhorsed in the Joust, by side index (challenger first).
    pub unhorsed: [bool; 2],
    /// Who ends the match with an uncancelled major injury: out for the rest of the day (R12).
    pub major_injury: [bool; 2],
    /// How many Joust passes were ridden.
    pub passes: u8,
    /// Whether Swordplay was fought.
    pub swordplay: bool,
}

/// Something that happened in a match. `K` names a knight: [`Side`] inside the engine, a display
/// name after [`Event::named`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event<K = Side> {
    /// A Joust pass begins (1 to 3).
    PassStarted {
        /// The pass number.
        pass: u8,
    },
    /// A psi skill was armed, or disarmed with `None` (R21).
    PsiArmed {
        /// Who.
        knight: K,
        /// The armed skill.
        skill: Option<PsiSkill>,
    },
    /// A psi roll.
    Psi {
        /// Who rolled.
        knight: K,
        /// Which psi skill.
        skill: PsiSkill,
        /// The d100.
        roll: u32,
        /// The psi skill's value.
        target: i32,
        /// Whether it succeeded (for Negapsi, also below the roll it reverses, R23).
        success: bool,
    },
    /// A successful psi effect was cancelled by the opponent's Catapsi.
    PsiCancelled {
        /// Whose effect.
        knight: K,
        /// Which psi skill was cancelled.
        skill: PsiSkill,
        /// Who cancelled it.
        by: K,
    },
    /// A successful psi effect was reversed by the opponent's Negapsi (R23).
    PsiReversed {
        /// Whose effect.
        knight: K,
        /// Which psi skill was reversed.
        skill: PsiSkill,
        /// Who reversed it.
        by: K,
    },
    /// A skill roll: d100 against an effective target (R1, R2).
    Roll {
        /// Who rolled.
        knight: K,
        /// What was rolled against.
        skill: RollSkill,
        /// The d100.
        roll: u32,
        /// The effective target after every modifier and the cap.
        target: i32,
        /// Whether the roll succeeded.
        success: bool,
        /// The unmodified skill.
        base: i32,
        /// The modifiers, in the order applied.
        #[serde(default, skip_serializing_if = "<[Modifier]>::is_empty")]
        modifiers: Modifiers,
        /// The "limited" cap of Joust 7B3: the Lance roll that hit (R10), when it lowered the target.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cap: Option<u32>,
        /// `Some(true)` for Hypercognition's automatic success, `Some(false)` for a reversed one's
        /// automatic failure (R18, R23).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        automatic: Option<bool>,
    },
    /// A Bonus was earned (R4).
    Bonus {
        /// Who earned it.
        knight: K,
        /// How much was earned.
        amount: u32,
        /// The pending Bonus now.
        total: u32,
    },
    /// Joust step 3: bonuses netted (R7).
    BonusNetted {
        /// Who keeps a Bonus, if anyone.
        knight: Option<K>,
        /// What that fighter keeps.
        remaining: u32,
        /// The smaller Bonus, cancelled on both sides.
        cancelled: u32,
    },
    /// A Bonus mode was chosen (R5).
    BonusMode {
        /// Who.
        knight: K,
        /// The new mode.
        mode: BonusMode,
    },
    /// A Bonus was used (R5).
    BonusSpent {
        /// Whose Bonus.
        knight: K,
        /// How much.
        amount: u32,
        /// The mode in which it applied.
        mode: BonusMode,
    },
    /// A Bonus was cancelled by the opponent's Mesmerism.
    BonusCancelled {
        /// Whose Bonus.
        knight: K,
        /// How much was lost.
        amount: u32,
        /// Who cancelled it.
        by: K,
    },
    /// A Mesmerism reversed by Negapsi doubled the Bonus instead (R23).
    BonusDoubled {
        /// Whose Bonus.
        knight: K,
        /// The Bonus now.
        total: u32,
    },
    /// A Joust Bonus unused at the end of its pass (R6).
    BonusExpired {
        /// Whose Bonus.
        knight: K,
        /// How much was lost.
        amount: u32,
    },
    /// Joust steps 4–5: a sweep announcement.
    Sweep {
        /// Who announced.
        knight: K,
        /// Whether they sweep.
        sweep: bool,
    },
    /// Joust step 6: who strikes first, and by which rule.
    FirstStrike {
        /// The first striker; `None` under 6D, where both strike (challenger first).
        knight: Option<K>,
        /// The rule that decided.
        rule: FirstStrikeRule,
    },
    /// Joust step 7: a strike declared.
    Strike {
        /// The striker.
        knight: K,
        /// High or Low.
        height: Height,
    },
    /// A fighter was unhorsed.
    Unhorsed {
        /// Who fell.
        knight: K,
    },
    /// An injury was suffered.
    Injury {
        /// Who.
        knight: K,
        /// Which.
        kind: Injury,
    },
    /// CPK cancelled an injury.
    InjuryHealed {
        /// Who.
        knight: K,
        /// Which.
        kind: Injury,
    },
    /// An answer to "go on to Swordplay?" (R41).
    FightOn {
        /// Who answered.
        knight: K,
        /// Whether they agreed.
        agreed: bool,
    },
    /// A d100 of the Swordplay 1C roll-off (R14).
    RollOff {
        /// Who rolled.
        knight: K,
        /// The roll.
        roll: u32,
    },
    /// Swordplay begins.
    SwordplayStarted {
        /// The first player.
        first: K,
        /// The rule of step 1 that decided.
        rule: FirstPlayerRule,
    },
    /// Swordplay 2A: an action declared.
    Action {
        /// The player whose turn it is.
        knight: K,
        /// The action.
        action: Action,
    },
    /// Swordplay 2B: a counter chosen (or Luck, forced).
    Counter {
        /// The defender.
        knight: K,
        /// The counter.
        counter: Counter,
    },
    /// Swordplay 2D: a damage roll on the defender.
    Damage {
        /// The defender who was hit.
        knight: K,
        /// Who rolled the damage.
        attacker: K,
        /// The d100.
        roll: u32,
        /// The table's result.
        result: DamageResult,
    },
    /// A fighter yielded (R19).
    Yielded {
        /// Who.
        knight: K,
    },
    /// The match is over.
    MatchEnded {
        /// The winner, or `None` for a draw.
        winner: Option<K>,
        /// Why.
        reason: EndReason,
    },
}

impl<K> Event<K> {
    /// The same event with every knight renamed by `f`.
    pub fn map_knights<L>(self, mut f: impl FnMut(K) -> L) -> Event<L> {
        use Event::*;
        match self {
            PassStarted { pass } => PassStarted { pass },
            PsiArmed { knight, skill } => PsiArmed {
                knight: f(knight),
                skill,
            },
            Psi {
                knight,
                skill,
                roll,
                target,
                success,
            } => Psi {
                knight: f(knight),
                skill,
                roll,
                target,
                success,
            },
            PsiCancelled { knight, skill, by } => PsiCancelled {
                knight: f(knight),
                skill,
                by: f(by),
            },
            PsiReversed { knight, skill, by } => PsiReversed {
                knight: f(knight),
                skill,
                by: f(by),
            },
            Roll {
                knight,
                skill,
                roll,
                target,
                success,
                base,
                modifiers,
                cap,
                automatic,
            } => Roll {
                knight: f(knight),
                skill,
                roll,
                target,
                success,
                base,
                modifiers,
                cap,
                automatic,
            },
            Bonus {
                knight,
                amount,
                total,
            } => Bonus {
                knight: f(knight),
                amount,
                total,
            },
            BonusNetted {
                knight,
                remaining,
                cancelled,
            } => BonusNetted {
                knight: knight.map(f),
                remaining,
                cancelled,
            },
            BonusMode { knight, mode } => BonusMode {
                knight: f(knight),
                mode,
            },
            BonusSpent {
                knight,
                amount,
                mode,
            } => BonusSpent {
                knight: f(knight),
                amount,
                mode,
            },
            BonusCancelled { knight, amount, by } => BonusCancelled {
                knight: f(knight),
                amount,
                by: f(by),
            },
            BonusDoubled { knight, total } => BonusDoubled {
                knight: f(knight),
                total,
            },
            BonusExpired { knight, amount } => BonusExpired {
                knight: f(knight),
                amount,
            },
            Sweep { knight, sweep } => Sweep {
                knight: f(knight),
                sweep,
            },
            FirstStrike { knight, rule } => FirstStrike {
                knight: knight.map(f),
                rule,
            },
            Strike { knight, height } => Strike {
                knight: f(knight),
                height,
            },
            Unhorsed { knight } => Unhorsed { knight: f(knight) },
            Injury { knight, kind } => Injury {
                knight: f(knight),
                kind,
            },
            InjuryHealed { knight, kind } => InjuryHealed {
                knight: f(knight),
                kind,
            },
            FightOn { knight, agreed } => FightOn {
                knight: f(knight),
                agreed,
            },
            RollOff { knight, roll } => RollOff {
                knight: f(knight),
                roll,
            },
            SwordplayStarted { first, rule } => SwordplayStarted {
                first: f(first),
                rule,
            },
            Action { knight, action } => Action {
                knight: f(knight),
                action,
            },
            Counter { knight, counter } => Counter {
                knight: f(knight),
                counter,
            },
            Damage {
                knight,
                attacker,
                roll,
                result,
            } => Damage {
                knight: f(knight),
                attacker: f(attacker),
                roll,
                result,
            },
            Yielded { knight } => Yielded { knight: f(knight) },
            MatchEnded { winner, reason } => MatchEnded {
                winner: winner.map(f),
                reason,
            },
        }
    }
}

impl Event<Side> {
    /// The same event with knights named by display name (`names[0]` the challenger's).
    pub fn named<'a>(&self, names: &'a [String; 2]) -> Event<&'a str> {
        self.clone()
            .map_knights(|side| names[side.index()].as_str())
    }
}

/// Where a match puts its events: a `Vec<Event>` keeps them; [`Discard`] drops them, for
/// simulations that need only outcomes (the compiler then skips building them).
pub trait EventSink {
    /// Takes one event.
    fn push(&mut self, event: Event);
}

impl EventSink for Vec<Event> {
    #[inline]
    fn push(&mut self, event: Event) {
        Vec::push(self, event);
    }
}

/// An [`EventSink`] that keeps nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Discard;

impl EventSink for Discard {
    #[inline]
    fn push(&mut self, _event: Event) {}
}
