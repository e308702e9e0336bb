//! The commands every game shares (`/roll`, `/fight N`, `/accept`, `/challenge`, `/help`...),
//! in three parts a game's table may place among its own; each game's own commands are in its
//! folder under `games/`. A channel reads a line by its game's table, then by [`SHARED`];
//! a line read where no channel's game is known is read by [`COMMANDS`].

use super::*;

/// The table a line is read by where no channel's game is known ([`crate::games::FALLBACK`]).
pub use crate::games::FALLBACK as COMMANDS;

pub(crate) const OPT_NAME: ArgSpec = ArgSpec::pos(
    "name",
    "NAME",
    ArgKind::Knight,
    "the knight; yours when left out",
    "Alan",
)
.optional()
.greedy();

/// `/help [COMMAND]` in a channel of a game on the seam: its own commands and the common ones.
pub const GAME_HELP: CommandSpec = CommandSpec::game(
    &["help"],
    "/help [COMMAND]",
    "List this channel's game's commands, or show how to use one.",
    "/help attack",
    &[
        ArgSpec::pos("command", "COMMAND", ArgKind::Text, "a command", "attack")
            .optional()
            .greedy(),
    ],
    Group::Fights,
);

/// `/roll`, out of any fight.
pub const DICE: &[CommandSpec] = &[CommandSpec {
    path: &["roll"],
    aliases: &["rol"],
    usage: "/roll EXPR",
    summary: "Roll dice, such as 1d100 or 4d6kh3.",
    example: "/roll 1d100",
    args: &[ArgSpec::pos(
        "expr",
        "EXPR",
        ArgKind::Dice,
        "a dice expression",
        "1d100",
    )],
    access: Access::Everyone,
    group: Group::Knights,
    build: |v| {
        Ok(Command::Roll {
            expr: v.req("expr")?,
        })
    },
}];

/// The books' fights, of every game (`/fight N`, `/fights`).
pub const HISTORY: &[CommandSpec] = &[
    CommandSpec {
        path: &["fight"],
        aliases: &[],
        usage: "/fight N",
        summary: "Sum up a fight of the books: who, when, what kind, the result, the awards and the seed.",
        example: "/fight 12",
        args: &[ArgSpec::pos("id", "N", ArgKind::Number { min: 1, max: 1_000_000_000 }, "the fight's number", "12")],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Fight { id: v.req("id")? }),
    },
    CommandSpec {
        path: &["fights"],
        aliases: &[],
        usage: "/fights [NAME] [--page N]",
        summary: "List a knight's fights, yours when no name is given, newest first, 10 a page.",
        example: "/fights Alan --page 2",
        args: &[
            OPT_NAME,
            ArgSpec::flag("--page", "page", ArgKind::Number { min: 1, max: 1_000_000 }, "which page of 10 fights, newest first", "--page 2"),
        ],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::Fights {
                name: v.opt("name")?,
                page: v.opt("page")?,
            })
        },
    },
];

/// A channel's challenge and fight, its game, characters and NPCs, the odds, `/help`, `/rules`
/// and linking accounts: every game's words.
pub const FIGHTS: &[CommandSpec] = &[
    CommandSpec {
        path: &["accept"],
        aliases: &[],
        usage: "/accept",
        summary: "Accept a challenge, an oath offered or a melee pass.",
        example: "/accept",
        args: &[],
        access: Access::Everyone,
        group: Group::Fights,
        build: |_| Ok(Command::Accept),
    },
    CommandSpec {
        path: &["decline"],
        aliases: &[],
        usage: "/decline",
        summary: "Decline a challenge, or decline Swordplay after a practice Joust.",
        example: "/decline",
        args: &[],
        access: Access::Everyone,
        group: Group::Fights,
        build: |_| Ok(Command::Decline),
    },
    CommandSpec {
        path: &["status"],
        aliases: &[],
        usage: "/status",
        summary: "Show what is under way in this channel and who must decide.",
        example: "/status",
        args: &[],
        access: Access::Everyone,
        group: Group::Fights,
        build: |_| Ok(Command::Status),
    },
    CommandSpec {
        path: &["challenge"],
        aliases: &[],
        usage: "/challenge TARGET",
        summary: "Challenge a player or a character to a fight in this channel's game.",
        example: "/challenge @bo",
        args: &[ArgSpec::pos(
            "target",
            "TARGET",
            ArgKind::Target,
            "a player or a character",
            "@bo",
        )
        .greedy()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(Command::Challenge {
                target: v.req("target")?,
            })
        },
    },
    CommandSpec {
        path: &["game"],
        aliases: &[],
        usage: "/game [GAME]",
        summary: "Say which game this channel plays; moderators change it by naming another.",
        example: "/game tourney",
        args: &[ArgSpec::pos(
            "game",
            "GAME",
            ArgKind::Text,
            "a game's id: psiknight, tourney",
            "tourney",
        )
        .optional()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(Command::SetGame {
                game: v.opt("game")?,
            })
        },
    },
    CommandSpec {
        path: &["narration"],
        aliases: &[],
        usage: "/narration [MODE]",
        summary: "Say how this channel's fights are told, compact or full; moderators switch it.",
        example: "/narration compact",
        args: &[ArgSpec::pos(
            "mode",
            "MODE",
            ArgKind::Text,
            "compact (a step a line) or full (an event a line)",
            "compact",
        )
        .optional()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(Command::Narration {
                mode: v.opt("mode")?,
            })
        },
    },
    CommandSpec {
        path: &["sheet"],
        aliases: &[],
        usage: "/sheet [NAME]",
        summary: "Show a character's sheet and state in this channel's game.",
        example: "/sheet Gimby",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::Sheet {
                name: v.opt("name")?,
            })
        },
    },
    CommandSpec {
        path: &["record"],
        aliases: &[],
        usage: "/record [NAME]",
        summary: "Show a character's wins, losses and draws in this channel's game.",
        example: "/record Gimby",
        args: &[OPT_NAME],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| {
            Ok(Command::Record {
                name: v.opt("name")?,
            })
        },
    },
    CommandSpec {
        path: &["npc", "create"],
        aliases: &[],
        usage: "/npc create NAME [OPTIONS]",
        summary: "Create a non-player character with this game's creation options, no budget.",
        example: "/npc create Drone-7 --strength 7",
        args: &[ArgSpec::pos(
            "rest",
            "NAME [OPTIONS]",
            ArgKind::Reason,
            "the name and the game's options",
            "Drone-7 --strength 7",
        )],
        access: Access::Moderator,
        group: Group::Fights,
        build: |v| {
            Ok(Command::NpcCreate {
                rest: v.req("rest")?,
            })
        },
    },
    CommandSpec {
        path: &["npc", "retire"],
        aliases: &[],
        usage: "/npc retire NAME",
        summary: "Remove a non-player character; its fights stay in the books.",
        example: "/npc retire Drone-7",
        args: &[ArgSpec::pos(
            "name",
            "NAME",
            ArgKind::Knight,
            "the non-player character",
            "Drone-7",
        )
        .greedy()],
        access: Access::Moderator,
        group: Group::Fights,
        build: |v| {
            Ok(Command::NpcRetire {
                name: v.req("name")?,
            })
        },
    },
    CommandSpec {
        path: &["as"],
        aliases: &[],
        usage: "/as NAME COMMAND",
        summary: "Give a non-player character's decision instead of its default.",
        example: "/as Drone-7 /attack",
        args: &[
            ArgSpec::pos(
                "name",
                "NAME",
                ArgKind::Knight,
                "the non-player character",
                "Drone-7",
            ),
            ArgSpec::pos(
                "command",
                "COMMAND",
                ArgKind::Reason,
                "the command, as typed",
                "/attack",
            ),
        ],
        access: Access::Moderator,
        group: Group::Fights,
        build: |v| {
            Ok(Command::As {
                name: v.req("name")?,
                command: v.req("command")?,
            })
        },
    },
    CommandSpec {
        path: &["odds"],
        aliases: &[],
        usage: "/odds KNIGHT [KNIGHT]",
        summary: "Estimate the chances of a fight, against your own knight when one name is given.",
        example: "/odds Alan \"Brenna Dubh\"",
        args: &[
            ArgSpec::pos("knight", "KNIGHT", ArgKind::Knight, "a knight", "Alan"),
            ArgSpec::pos(
                "other",
                "KNIGHT",
                ArgKind::Knight,
                "the other knight; yours when left out",
                "\"Brenna Dubh\"",
            )
            .optional(),
        ],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(Command::Odds {
                knight: v.req("knight")?,
                other: v.opt("other")?,
            })
        },
    },
    CommandSpec {
        path: &["help"],
        aliases: &[],
        usage: "/help [COMMAND]",
        summary: "List the commands, or show how to use one.",
        example: "/help roll",
        args: &[
            ArgSpec::pos("command", "COMMAND", ArgKind::Topic, "a command", "roll")
                .optional()
                .greedy(),
        ],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            let topic = match v.opt::<String>("command")? {
                Some(t) => Some(help_topic(&t)?),
                None => None,
            };
            Ok(Command::Help { topic })
        },
    },
    CommandSpec {
        path: &["rules"],
        aliases: &["rule"],
        usage: "/rules [TOPIC]",
        summary: "Sum up a topic of the rules, or quote a ruling by its number.",
        example: "/rules joust",
        args: &[ArgSpec::pos(
            "topic",
            "TOPIC",
            ArgKind::Text,
            "a topic or a ruling",
            "joust",
        )
        .optional()
        .greedy()],
        access: Access::Everyone,
        group: Group::Fights,
        build: |v| {
            Ok(Command::Rules {
                topic: v.opt("topic")?,
            })
        },
    },
    CommandSpec {
        path: &["link"],
        aliases: &[],
        usage: "/link [CODE]",
        summary: "Join your accounts on two platforms: a code said to you alone, valid 10 minutes, to type on the other.",
        example: "/link K7QF2M",
        args: &[ArgSpec::pos("code", "CODE", ArgKind::Text, "the code your other account was given", "K7QF2M").optional()],
        access: Access::Everyone,
        group: Group::Knights,
        build: |v| Ok(Command::Link { code: v.opt("code")? }),
    },
    CommandSpec {
        path: &["unlink"],
        aliases: &[],
        usage: "/unlink",
        summary: "Undo a link, from either account; characters stay with the account that made them.",
        example: "/unlink",
        args: &[],
        access: Access::Everyone,
        group: Group::Knights,
        build: |_| Ok(Command::Unlink),
    },
];

/// The commands every game shares, in the order of their parts.
pub static SHARED: [CommandSpec; count(&[DICE, HISTORY, FIGHTS])] =
    concat(&[DICE, HISTORY, FIGHTS]);

/// How many entries `parts` hold together, for a table assembled by [`concat`].
pub const fn count(parts: &[&[CommandSpec]]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// One table of `parts`, in order: a game's own entries with the shared ones placed among
/// them. `N` is [`count`] of the parts.
pub const fn concat<const N: usize>(parts: &[&[CommandSpec]]) -> [CommandSpec; N] {
    assert!(
        count(parts) == N && N > 0,
        "a table's size is the count of its parts"
    );
    let mut out = [parts[0][0]; N];
    let (mut k, mut i) = (0, 0);
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// The table entry named exactly `name`, its words as [`Command::name`] gives them (lower case,
/// one space between words) or an alias: what [`find_spec`] finds for such a name, looked up in
/// the parser's index of the table, since every command asks it for its access.
pub(crate) fn spec_named(name: &str) -> Option<&'static CommandSpec> {
    super::parse::named(&[COMMANDS], name.split(' ').count(), name)
}

/// The table entry for a command's words or an alias (`roll`, `rol`, `knight create`),
/// case-insensitive.
pub fn find_spec(name: &str) -> Option<&'static CommandSpec> {
    let phrase = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    COMMANDS.iter().find(|s| s.is(&phrase))
}
