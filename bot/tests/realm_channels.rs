//! A tournament's `--channel <#id>` naming a channel of another guild: located in that
//! channel's guild (its place) when the guild is of the same realm, refused when it is not.
//! The Discord transport lists each guild's channels as its gateway sends them
//! (`App::know_channels`); here the test lists them as it would.

mod common;
use common::*;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::{Answer, Hub, Incoming, Rights};
use herald_bot::store::db;
use std::sync::Arc;

const CONFIG: &str = r##"
[realms.albion]
discord_guilds = [111, 222]
moderators = ["warden"]

[realms.brittany]
discord_guilds = [333]
"##;

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

#[tokio::test]
async fn a_tournament_in_another_guild_of_the_realm_is_that_guilds_and_another_realms_is_refused() {
    for backend in backends().await {
        let which = backend.name();
        let config: Config = toml::from_str(CONFIG).unwrap();
        config.check().unwrap();
        let app = Arc::new(App::new(backend.store().await, config, Some(7)).unwrap());
        app.know_channels("111", ["<#1001>".to_string()]);
        app.know_channels("222", ["<#2001>".to_string()]);
        app.know_channels("333", ["<#3001>".to_string()]);
        let at = "2026-12-01T10:00:00Z".parse().unwrap();
        let hub = Hub::manual(app.clone(), Arc::new(Clock::manual(at)), vec!['/']);
        let a = say(
            &hub,
            "111",
            "<#1001>",
            "warden",
            "/tournament schedule \"Yule Lists\" in 1h --channel <#2001>",
        )
        .await;
        assert!(a.lines.join(" ").contains("Yule Lists"), "{which}: {a:?}");
        // Another realm's guild: refused, nothing written.
        let a = say(
            &hub,
            "111",
            "<#1001>",
            "warden",
            "/tournament schedule \"Breton Lists\" in 2h --channel <#3001>",
        )
        .await;
        assert_eq!(
            a.lines,
            ["<#3001> is a channel of another realm (brittany); name a channel of albion with --channel, or schedule it there."],
            "{which}"
        );
        // A channel no transport listed stays the scheduling guild's, as before.
        let a = say(
            &hub,
            "111",
            "<#1001>",
            "warden",
            "/tournament schedule \"Spring Lists\" in 1d --channel <#4001> --force",
        )
        .await;
        assert!(a.lines.join(" ").contains("Spring Lists"), "{which}: {a:?}");
        let rows: Vec<(String, String, String)> =
            db::query("SELECT name, channel, place FROM tournaments ORDER BY id")
                .fetch_all(app.store.db())
                .await
                .unwrap()
                .iter()
                .map(|r| {
                    (
                        r.try_get("name").unwrap(),
                        r.try_get("channel").unwrap(),
                        r.try_get("place").unwrap(),
                    )
                })
                .collect();
        assert_eq!(
            rows,
            [
                ("Yule Lists".into(), "<#2001>".into(), "222".into()),
                ("Spring Lists".into(), "<#4001>".into(), "111".into()),
            ],
            "{which}"
        );
        // The tournament's own channel, in its guild, holds it.
        let a = say(&hub, "222", "<#2001>", "warden", "/tournament").await;
        assert!(a.lines.join(" ").contains("Yule Lists"), "{which}: {a:?}");
    }
}
