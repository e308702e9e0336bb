//! Deadlines of several channels that fall due at one instant fire in one order, the channels'
//! (realm, then channel name), whatever the order the hub keeps its sessions in: a transcript
//! of two such channels reads the same on every run.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::Hub;
use herald_bot::transport::script;
use std::sync::Arc;

/// Challenges in four channels at one instant, in no channel's order: all lapse together.
const FOUR_CHALLENGES: &str = "\
@clock 2026-12-01T10:00:00Z
ann: /knight create Ann --top lance,ride,shield --psi cpk:40 --monarch ragnar
bo: /knight create Bo --top lance,ride,shield --psi cpk:40 --monarch ragnar
cy: /knight create Cy --top lance,ride,shield --psi cpk:40 --monarch ragnar
di: /knight create Di --top lance,ride,shield --psi cpk:40 --monarch ragnar
[#c] ann: /joust bo
[#a] bo: /joust cy
[#d] cy: /joust di
[#b] di: /joust ann
";

#[tokio::test]
async fn deadlines_due_at_one_instant_fire_in_the_channels_order() {
    let books = Books::new();
    let config = Config::default();
    let app = App::new(books.store().await, config, Some(0)).unwrap();
    let start = chrono::DateTime::parse_from_rfc3339("2026-12-01T10:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let hub = Hub::manual(Arc::new(app), Arc::new(Clock::manual(start)), vec!['/']);
    let mut out = Vec::new();
    script::run(&hub, FOUR_CHALLENGES, &mut out).await.unwrap();
    let due = hub.advance(start + chrono::Duration::hours(1)).await;
    let channels: Vec<&str> = due
        .iter()
        .filter(|o| o.text.contains("lapses unanswered"))
        .map(|o| o.channel.as_str())
        .collect();
    assert_eq!(channels, ["#a", "#b", "#c", "#d"], "{due:?}");
}
