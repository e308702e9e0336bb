//! Psi armed in secret (issue 15, item 9; R21): arming, disarming and a refused arming that
//! names the skill are answered to the player alone (`[to NICK]` in a transcript); the channel
//! hears only that a psi skill is readied, and the skill when it fires.

mod common;
use common::*;

/// The channel's lines of a run, without the private ones.
fn channel_lines(run: &Run) -> Vec<&str> {
    run.lines()
        .into_iter()
        .filter(|l| !l.starts_with("[to "))
        .collect()
}

// R21: Hypercognition armed during the challenge and Apportation during the fight (the worked
// example): each is told to Dara alone, the channel hears "has readied a psi skill", and the
// skill is named in the channel only when it fires.
#[tokio::test]
async fn arming_is_told_to_the_knight_alone_and_revealed_when_it_fires() {
    let books = Books::new();
    let run = run(&books.path(), include_str!("transcripts/example.txt")).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("[to dana] Dame Dara arms Hypercognition.")
        .expect("[to dana] Dame Dara arms Apportation.")
        .expect("[#lists] Dame Dara calls on Hypercognition: 15 vs 20, success.");
    let readied = channel_lines(&run)
        .iter()
        .filter(|l| **l == "[#lists] Dame Dara has readied a psi skill.")
        .count();
    assert_eq!(readied, 2, "{}", run.out);
    // From the challenge until Hypercognition fires, nothing in the channel names it.
    let lines = run.lines();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle:?} in:\n{}", run.out))
    };
    assert!(
        lines[at("challenges Sir Eoin")..at("calls on Hypercognition")]
            .iter()
            .filter(|l| !l.starts_with("[to "))
            .all(|l| !l.contains("Hypercognition")),
        "{}",
        run.out
    );
    // Nor does the channel ever hear which skill was armed.
    assert!(
        channel_lines(&run).iter().all(|l| !l.contains(" arms ")),
        "{}",
        run.out
    );
}

// R21: a skill the knight lacks is refused to them alone, in the challenge and in the fight; a
// disarming is told to them alone, and the channel hears nothing of it.
#[tokio::test]
async fn refusals_and_disarming_are_private_and_the_channel_hears_nothing_of_them() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
dana: /psi telepathy
dana: /psi apportation
dana: /psi off
@dice 90 90 90 80
evan: /accept
dana: /psi catapsi
evan: /psi negapsi
evan: /psi off
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    run.expect("[to dana] Dame Dara has no Telepathy (R21).")
        .expect("[to dana] Dame Dara arms Apportation.")
        .expect("[to dana] Dame Dara disarms psi.")
        .expect("[to dana] Dame Dara: your knight has no Catapsi (R21).")
        .expect("[to evan] Sir Eoin arms Negapsi.")
        .expect("[to evan] Sir Eoin disarms psi.")
        .expect("[#lists] Dame Dara has readied a psi skill.")
        .expect("[#lists] Sir Eoin has readied a psi skill.");
    // The dubbing lists the knights' psi; from the challenge on, the channel hears none named.
    let channel = channel_lines(&run);
    let challenge = channel
        .iter()
        .position(|l| l.contains("challenges Sir Eoin"))
        .expect("the challenge");
    for line in &channel[challenge..] {
        for secret in ["Telepathy", "Apportation", "Catapsi", "Negapsi", "disarms"] {
            assert!(!line.contains(secret), "{line:?} in:\n{}", run.out);
        }
    }
    // Each readied line is the only channel line its command got.
    let lines = run.lines();
    let after = |needle: &str| {
        let i = lines
            .iter()
            .position(|l| l.starts_with(needle))
            .unwrap_or_else(|| panic!("{needle:?} in:\n{}", run.out));
        lines[i + 1]
    };
    assert!(after("[to evan] Sir Eoin arms Negapsi.").starts_with("[to evan] Sir Eoin disarms"));
}

// R21, issue 15 item 10: `/status` tells each fighter their own armed skill, privately, in the
// challenge and in the fight; the channel's status names none, and a bystander gets no such line.
#[tokio::test]
async fn status_tells_a_fighter_their_own_armed_skill_alone() {
    let books = Books::new();
    let transcript = format!(
        "{DARA_AND_EOIN}\
dana: /joust evan
dana: /psi apportation
dana: /status
@dice 90 90 90 80
evan: /accept
evan: /status
dana: /status
carl: /status
"
    );
    let run = run(&books.path(), &transcript).await;
    assert_eq!(run.result, Ok(()), "{}", run.out);
    let lines = run.lines();
    let own: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("armed; it fires"))
        .collect();
    assert_eq!(
        own,
        [
            &"[to dana] Dame Dara has Apportation armed; it fires at its next moment (R21).",
            &"[to dana] Dame Dara has Apportation armed; it fires at its next moment (R21)."
        ],
        "{}",
        run.out
    );
    run.expect("[to evan] Sir Eoin has no psi skill armed; /psi SKILL arms one (R21).");
    assert!(
        lines.iter().all(|l| !l.starts_with("[to carl]")),
        "{}",
        run.out
    );
    let channel = channel_lines(&run);
    let challenge = channel
        .iter()
        .position(|l| l.contains("challenges Sir Eoin"))
        .expect("the challenge");
    assert!(
        channel[challenge..]
            .iter()
            .all(|l| !l.contains("Apportation")),
        "{}",
        run.out
    );
}
