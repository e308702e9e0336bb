//! `/rules [TOPIC]`: PsiKnight's checklists and books summed up in chat, a few lines a topic,
//! each citing the steps of the rule text and the rulings Herald applies; `/rules R26` shows one
//! ruling as `docs/rulings.md` words it, so the chat and the file never disagree.

/// The project's rulings, R1 onwards, as the binary carries them.
const RULINGS: &str = include_str!("../../../../docs/rulings.md");

/// One topic of `/rules`.
struct Topic {
    /// The word that asks for it.
    word: &'static str,
    /// Other words for it.
    aliases: &'static [&'static str],
    /// Its lines, in order.
    lines: &'static [&'static str],
}

const TOPICS: &[Topic] = &[
    Topic {
        word: "joust",
        aliases: &["jousting", "pass"],
        lines: &[
            "Joust, up to three passes, each fighter one psi attempt a pass (R20):",
            "1-3 Both roll Observe: one success earns +30 Bonus, two the lower roll +10; both roll Ride: one success +15; the Bonuses net, so one fighter at most keeps one (R7).",
            "4-6 The higher Ride roll announces a sweep or not first (/sweep, /nosweep, R8); a sweeper gets Lance +25 but strikes second; else the Bonus holder strikes first, else the higher unmodified Lance or Ride (R9).",
            "7-8 The striker aims /high (Shield defends) or /low (Ride defends) and rolls Lance; after a hit the defence is limited to the Lance roll (R10, R11); a failed defence unhorses. Then the other strikes.",
            "9-10 No fall in three passes ends the Joust (R27); a fall on a defence of 96-97 hurts the weapon arm, 98-99 the shield arm, 100 is a major injury (R12). Swordplay follows in the Lists, and in practice when both agree (/swordplay, R41).",
        ],
    },
    Topic {
        word: "swordplay",
        aliases: &["sword", "damage"],
        lines: &[
            "Swordplay, each fighter two psi attempts a match (R20): first the knight just unhorsed, or the one challenged with no Joust, else a roll-off, low first (R14).",
            "2A Your turn: /attack (Sword), /observe (Observe) or /press (Sword +25); a failed roll ends the turn.",
            "2B The defender counters: /block (Shield), /dodge (Dodge) or /parry (Sword -20), or Luck 10 after their own Press (R15); no Block after an arm hit, no Dodge after LEGS (R16).",
            "2C Observe: a failed counter earns +30 Bonus; a counter that succeeds with a higher roll, +10 (R18).",
            "2D A failed counter to an attack: damage 01-22 KILL, 23-30 weapon arm (no Block, Sword halved), 31-33 shield arm (no Block), 34-50 legs (no Dodge), 51-00 armour holds; a second arm hit kills (R17). /yield loses at once (R19).",
        ],
    },
    Topic {
        word: "psi",
        aliases: &["powers", "psionics"],
        lines: &[
            "Psi: arm a skill with /psi SKILL from the challenge on (/psi off disarms); it fires at its next moment if an attempt is left, a success at or under the skill (R21, R22).",
            "Apportation +25 to your next Lance, Sword or Shield roll; Hypercognition makes your Observe succeed or adds +25 to Dodge; Telepathy +25 to your Ride in the Joust; Mesmerism cancels the opponent's Bonus when you would sweep or act.",
            "CPK ignores an injury just suffered; Catapsi cancels the opponent's psi just after it succeeds; Negapsi reverses it, rolling also under the roll it reverses (R23); neither is answered (R24).",
            "Limits: one attempt a pass in the Joust, two a match in Swordplay, reactions included; CPK after a Joust is outside them (R20, R12).",
        ],
    },
    Topic {
        word: "bonus",
        aliases: &["bonuses"],
        lines: &[
            "A Bonus: you hold at most one (R4). /bonus attack adds it to your next Lance or Sword roll; /bonus defend to your next defence if you are hit; /bonus weaken, the default, takes it off the opponent's defence if you hit (R5). A Joust Bonus ends with its pass (R6).",
        ],
    },
    Topic {
        word: "knight",
        aliases: &["knights", "create", "creation"],
        lines: &[
            "A new knight (R3): /knight create NAME --top S,S,S --psi P:N[,P:N] --monarch M [--dame]: three of Lance, Ride, Observe, Shield, Dodge and Sword at 40, the rest at 30; one to three psi skills sharing 40 points in tens, at least 10 each; sworn to King Llewellyn, King Ragnar or Queen Seonaid.",
        ],
    },
    Topic {
        word: "honor",
        aliases: &["honour", "hp", "spend", "awards"],
        lines: &[
            "Honor Points: 1 HP for winning the day's one recorded practice fight against an opponent (R26), at most 4 practice HP a month (R28); tournaments award more (/rules tournament).",
            "/spend SKILL raises it by 10: 2 HP below 50, 5 from 50, 10 from 60, 15 from 70, none at 80 (R30). /land buys lands for 12 HP (+5 PP); once landed, every award is half HP, half PP (R29, R31).",
        ],
    },
    Topic {
        word: "nobility",
        aliases: &["titles", "allegiance", "land", "lands"],
        lines: &[
            "Titles with lands (/advance): Baron 20 PP, Viscount 80, Earl 320, Duke 1,440; vassals' PP count towards them (R32).",
            "A noble offers lands with /grant KNIGHT (5 PP of their own); the knight who /accepts becomes landed and their vassal (R31, R172). /swear offers allegiance; /release ends it by mutual consent, lands kept (R173).",
            "Breaking faith: /renounce for a cause on the books; declaring hostility on one's own lord or vassal is oathbreaking and costs half one's PP (R33).",
        ],
    },
    Topic {
        word: "ransom",
        aliases: &["hostility", "war", "capture"],
        lines: &[
            "Hostility (/hostility declare KNIGHT) makes practice jousts between the hostile, their vassals included, fights for ransom; only both can end it (R33).",
            "The loser of a joust for ransom is captured: the victor may /ransom demand the customary ransom or less (unlanded 2 PP, landed 3, Baron 10, Viscount 20, Earl 40, Duke 80), /ransom free, or /ransom kill; anyone may /ransom pay (R107).",
        ],
    },
    Topic {
        word: "tournament",
        aliases: &["tournaments", "lists", "melee"],
        lines: &[
            "One tournament a month, scheduled by a moderator (R38); /enter before it begins.",
            "The Lists: each round pairs the knights left at random, no one sitting out twice (R34); up to three Joust passes, an unhorsing decides, else Swordplay to the end (R35); the last unbeaten is champion.",
            "The Melee: two sides; a knight offers a pass to one of the other side (/pass KNIGHT), one Joust pass, the unhorsed out, until time or one side alone is mounted (R37).",
            "Awards: 1 HP a Lists match fought, 1 an unhorsing, 1 a top-three finish, 1 each Melee, 1 the winning side, 1 a first prize (R36).",
        ],
    },
];

/// The answer to `/rules [TOPIC]`.
pub fn answer(topic: Option<&str>) -> Vec<String> {
    let Some(topic) = topic
        .map(|t| t.trim().to_lowercase())
        .filter(|t| !t.is_empty())
    else {
        return vec![index()];
    };
    if let Some(number) = ruling_number(&topic) {
        return vec![match ruling(number) {
            Some(text) => text,
            None => format!(
                "There is no ruling R{number}; rulings run R1-R42 and, the project's own, from R100. /rules lists the topics."
            ),
        }];
    }
    match TOPICS
        .iter()
        .find(|t| t.word == topic || t.aliases.contains(&topic.as_str()))
    {
        Some(t) => t.lines.iter().map(|l| l.to_string()).collect(),
        None => vec![format!("No rules topic '{topic}'. {}", index())],
    }
}

/// The topics, as one line.
fn index() -> String {
    let words: Vec<&str> = TOPICS.iter().map(|t| t.word).collect();
    format!(
        "/rules TOPIC sums up the rules: {}; /rules R26 shows one ruling.",
        words.join(", ")
    )
}

/// `r26`, `R26` → 26.
fn ruling_number(topic: &str) -> Option<u32> {
    let digits = topic.strip_prefix('r')?;
    (!digits.is_empty() && digits.len() <= 4 && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// Ruling `number` as the rulings file words it, on one line: "R26 Once a day. One practice …".
fn ruling(number: u32) -> Option<String> {
    let head = format!("- **R{number} ");
    let start = RULINGS.find(&head)?;
    let rest = &RULINGS[start + 2..];
    // An entry runs to the next entry, heading or blank line.
    let end = rest
        .find("\n- ")
        .into_iter()
        .chain(rest.find("\n\n"))
        .chain(rest.find("\n#"))
        .min()
        .unwrap_or(rest.len());
    let text = rest[..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("**", "")
        .replace('`', "");
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Issue 15, item 14: a checklist summed up in chat, with the steps it walks.
    #[test]
    fn a_topic_sums_up_its_checklist() {
        let joust = answer(Some("Joust"));
        assert_eq!(joust.len(), 5);
        assert!(joust[0].starts_with("Joust, up to three passes"));
        assert!(joust[4].starts_with("9-10 "), "{joust:?}");
        assert_eq!(answer(Some("lists")), answer(Some("tournament")));
        assert!(answer(Some("swordplay"))[4].contains("01-22 KILL"));
    }

    #[test]
    fn no_topic_lists_them_and_an_unknown_one_says_so() {
        assert_eq!(
            answer(None),
            vec!["/rules TOPIC sums up the rules: joust, swordplay, psi, bonus, knight, honor, nobility, ransom, tournament; /rules R26 shows one ruling.".to_string()]
        );
        assert!(answer(Some("chess"))[0].starts_with("No rules topic 'chess'. /rules TOPIC"));
    }

    // R26 and R173 as docs/rulings.md words them, one line; a number not there is said so.
    #[test]
    fn a_ruling_is_shown_as_the_file_words_it() {
        let r26 = answer(Some("R26"));
        assert!(
            r26[0].starts_with(
                "R26 Once a day. One practice fight per pair of knights is recorded a day"
            ),
            "{r26:?}"
        );
        assert!(!r26[0].contains("R41 Fighting on"), "{r26:?}");
        assert!(answer(Some("r173"))[0].starts_with("R173 "));
        assert!(answer(Some("R999"))[0].starts_with("There is no ruling R999"));
    }

    // Every ruling a topic cites is in the file.
    #[test]
    fn every_cited_ruling_exists() {
        for topic in TOPICS {
            for line in topic.lines {
                for cite in line.split(['(', ',', ' ', ')']).filter_map(|w| {
                    w.strip_prefix('R')
                        .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
                }) {
                    let n: u32 = cite.parse().unwrap();
                    assert!(ruling(n).is_some(), "{} cites R{n}", topic.word);
                }
            }
        }
    }
}
