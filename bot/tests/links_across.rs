//! A `/link` or `/unlink` made in one process counts in another on the same PostgreSQL at
//! once: the link's transaction notifies every process, which forgets the accounts it kept
//! (`store/links.rs`). The test waits for that notification, not for time to pass. (On SQLite,
//! shared by processes only on one machine, another process's link counts within `LINK_KEPT`.)

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Answer, Hub, Incoming, Rights};
use std::sync::Arc;

const CONFIG: &str = r##"
[realms.albion]
irc_networks = ["libera"]
discord_guilds = [555]
"##;

async fn process(backend: &Backend) -> Hub {
    let config: Config = toml::from_str(CONFIG).unwrap();
    config.check().unwrap();
    let app = Arc::new(App::new(backend.store().await, config, Some(7)).unwrap());
    let at = "2026-12-01T10:00:00Z".parse().unwrap();
    Hub::manual(app, Arc::new(Clock::manual(at)), vec!['/', '!'])
}

async fn say(hub: &Hub, place: &str, channel: &str, user: &str, text: &str) -> Answer {
    hub.answer(
        &Incoming {
            realm: place.into(),
            channel: channel.into(),
            user: user.into(),
            text: text.into(),
        },
        Rights::default(),
    )
    .await
}

/// Waits until `hub`'s store has heard `n` link changes in all.
async fn heard(hub: &Hub, n: u64) {
    let mut heard = hub.app().store.links_heard();
    tokio::time::timeout(
        std::time::Duration::from_secs(20),
        heard.wait_for(|h| *h >= n),
    )
    .await
    .expect("the link's notification arrives")
    .expect("the store listens");
}

#[tokio::test]
async fn a_link_made_in_one_process_counts_in_the_other_at_its_next_command() {
    let Some(backend) = postgres().await else {
        return;
    };
    let (one, two) = (process(&backend).await, process(&backend).await);
    let made = say(
        &one,
        "libera",
        "#lists",
        "ash",
        "!knight create Ash --top lance,shield,ride --psi cpk:40 --monarch llewellyn",
    )
    .await;
    assert!(made.lines.join(" ").contains("Ash"), "{made:?}");
    // The second process reads (and keeps) that Discord's 111 plays as itself: no knight.
    let before = say(&two, "555", "<#1>", "111", "/knight").await;
    assert!(!before.lines.join(" ").contains("Ash"), "{before:?}");
    let already = *two.app().store.links_heard().borrow();

    // The link is made in the first process.
    let asked = say(&one, "libera", "#lists", "ash", "!link").await;
    let code = asked
        .private
        .join(" ")
        .split("link code is ")
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("no code in {asked:?}"))
        .to_string();
    let linked = say(&one, "555", "<#1>", "111", &format!("/link {code}")).await;
    assert!(
        linked.private.join(" ").contains("now plays as ash"),
        "{linked:?}"
    );
    // How long the other process takes to hear it, shown with --nocapture (not asserted).
    let committed = std::time::Instant::now();
    heard(&two, already + 1).await;
    eprintln!(
        "the link was heard {:?} after its commit",
        committed.elapsed()
    );
    let after = say(&two, "555", "<#1>", "111", "/knight").await;
    assert!(after.lines.join(" ").contains("Ash"), "{after:?}");

    // And undone there: the second process hears that too.
    let unlinked = say(&one, "555", "<#1>", "111", "/unlink").await;
    assert!(!unlinked.private.is_empty() || !unlinked.lines.is_empty());
    heard(&two, already + 2).await;
    let undone = say(&two, "555", "<#1>", "111", "/knight").await;
    assert!(!undone.lines.join(" ").contains("Ash"), "{undone:?}");
}
