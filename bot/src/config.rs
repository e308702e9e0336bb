//! Configuration: one TOML file, every key optional with a sensible default. Secrets (the
//! Discord token) come from the environment, never from the file.

use anyhow::{bail, Context, Result};
use chrono_tz::Tz;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The whole configuration file. See `config.example.toml` for every key, commented.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Days, months and decision timeouts.
    pub realm: RealmConfig,
    /// Where the books are kept.
    pub database: DatabaseConfig,
    /// The local console room.
    pub console: ConsoleConfig,
    /// The IRC transport; it runs when this section is present (once per network of
    /// `[irc.networks.NAME]` when it lists any).
    pub irc: Option<IrcConfig>,
    /// The Discord transport; it runs when this section is present.
    pub discord: Option<DiscordConfig>,
    /// Who may run tournaments and edit the books.
    pub permissions: Permissions,
    /// Reminders and time limits of tournaments.
    pub tournaments: TournamentConfig,
    /// Which game each channel plays.
    pub games: GamesConfig,
    /// The Tourney's house tables (`[tourney.weapons]`, ...), read by that game's folder.
    pub tourney: Option<toml::Value>,
    /// The PFP duel's house numbers (`[pfpduel]`: power, health), read by that game's folder.
    pub pfpduel: Option<toml::Value>,
    /// How fights are told, compact or full, by channel.
    pub narration: crate::narration::NarrationConfig,
    /// Psi Morphs' house tables (`[psimorphs]`, `[psimorphs.budget]`, `[[psimorphs.forces]]`),
    /// read by that game's folder.
    pub psimorphs: Option<toml::Value>,
    /// Psionic combat's house data (`[powerpool]`: PC34's budget, PC31's round limit), read
    /// by that game's folder.
    pub powerpool: Option<toml::Value>,
    /// The realm on the web: the pages `herald run` serves.
    pub web: WebConfig,
    /// Named realms spanning several places (`[realms.NAME]`: Discord guilds, IRC networks, and
    /// their own moderators and admins). A place named in none is a realm of its own.
    pub realms: std::collections::BTreeMap<String, RealmPlaces>,
}

/// `[realms.NAME]`: the places whose books are one realm's, and who rules it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RealmPlaces {
    /// Discord guilds (ids) of the realm.
    pub discord_guilds: Vec<u64>,
    /// IRC networks of the realm, as named by `[irc] network` or the server's `NETWORK=`.
    pub irc_networks: Vec<String>,
    /// The realm's admins; with no admins nor moderators here, `[permissions]`' hold.
    pub admins: Vec<String>,
    /// The realm's moderators.
    pub moderators: Vec<String>,
    /// Discord roles whose members are the realm's moderators.
    pub moderator_roles: Vec<String>,
    /// The realm's time zone, over `[realm] timezone` (its days and months, R25, and its
    /// tournaments' schedules).
    pub timezone: Option<String>,
    /// Seconds for a decision in this realm's fights, over `[realm]`'s.
    pub decision_timeout_secs: Option<u64>,
    /// Seconds a challenge stays open in this realm, over `[realm]`'s.
    pub challenge_timeout_secs: Option<u64>,
}

/// `[web]`: the read-only pages `herald run` serves.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// Whether `herald run` serves the pages.
    pub enabled: bool,
    /// The address to listen on.
    pub bind: String,
    /// The pages' address as players reach them (`https://herald.example.org`), for the links
    /// Herald says in chat; empty says none.
    pub base_url: String,
}

impl Default for WebConfig {
    fn default() -> Self {
        WebConfig {
            enabled: true,
            bind: "127.0.0.1:8080".into(),
            base_url: String::new(),
        }
    }
}

/// `[games]`: the game channels play unless a moderator chose another (`/game ID`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GamesConfig {
    /// The game of channels not named below.
    pub default: String,
    /// Channel name = game id.
    pub channels: std::collections::BTreeMap<String, String>,
}

impl Default for GamesConfig {
    fn default() -> Self {
        GamesConfig {
            default: crate::games::PSIKNIGHT.id.to_string(),
            channels: Default::default(),
        }
    }
}

impl GamesConfig {
    /// The configured game of `channel` (names compared in any case).
    pub fn of(&self, channel: &str) -> &str {
        self.channels
            .iter()
            .find(|(c, _)| c.eq_ignore_ascii_case(channel))
            .map_or(self.default.as_str(), |(_, g)| g.as_str())
    }

    fn check(&self) -> Result<()> {
        for (place, id) in std::iter::once(("[games] default".to_string(), &self.default)).chain(
            self.channels
                .iter()
                .map(|(c, g)| (format!("[games.channels] \"{c}\""), g)),
        ) {
            if crate::games::find(id).is_none() {
                bail!(
                    "{place} = \"{id}\" is not a game Herald referees; the games are {}",
                    crate::games::ids()
                );
            }
        }
        Ok(())
    }
}

/// `[tournaments]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TournamentConfig {
    /// How long before a tournament's start Herald reminds its channel, in seconds.
    pub reminder_secs: Vec<u64>,
    /// The Melee's time limit in minutes when the schedule names none.
    pub melee_minutes: u32,
    /// Seconds Herald waits for a moderator's step in a tournament: opening and starting the
    /// Melee once the Lists are over, and naming its first prize once it is over.
    pub moderator_timeout_secs: u64,
    /// Seconds between tries to start a match whose knight is still in a fight elsewhere.
    pub match_retry_secs: u64,
}

impl Default for TournamentConfig {
    fn default() -> Self {
        TournamentConfig {
            reminder_secs: vec![86_400, 3_600],
            melee_minutes: 30,
            moderator_timeout_secs: 600,
            match_retry_secs: 60,
        }
    }
}

/// `[realm]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RealmConfig {
    /// The IANA time zone whose calendar days and months count for the practice rules (R25).
    pub timezone: String,
    /// Seconds a fighter has for a decision before the engine's default is taken.
    pub decision_timeout_secs: u64,
    /// Seconds a challenge stays open before it lapses.
    pub challenge_timeout_secs: u64,
}

impl Default for RealmConfig {
    fn default() -> Self {
        RealmConfig {
            timezone: "UTC".into(),
            decision_timeout_secs: 120,
            challenge_timeout_secs: 300,
        }
    }
}

/// `[database]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// The SQLite file; created with its schema if missing.
    pub path: PathBuf,
    /// The database as a URL, in place of `path`: `postgres://USER:PASSWORD@HOST/NAME` for
    /// PostgreSQL (several processes may share it), `sqlite:PATH` (or a bare path) for SQLite.
    pub url: Option<String>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            path: PathBuf::from("herald.db"),
            url: None,
        }
    }
}

/// `[console]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConsoleConfig {
    /// The channel the console room speaks in.
    pub channel: String,
    /// The speaker of lines without a `nick:` prefix before anyone has spoken.
    pub nick: String,
    /// Command prefixes.
    pub prefixes: Vec<char>,
}

impl Default for ConsoleConfig {
    fn default() -> Self {
        ConsoleConfig {
            channel: "#lists".into(),
            nick: "player".into(),
            prefixes: vec!['/', '!'],
        }
    }
}

/// `[irc]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IrcConfig {
    /// Server host name or address.
    pub server: String,
    /// Server port.
    pub port: u16,
    /// Whether to speak TLS.
    pub tls: bool,
    /// Herald's nick.
    pub nick: String,
    /// Channels to join.
    pub channels: Vec<String>,
    /// The command prefix (IRC clients eat `/`); each of its characters starts a command.
    pub prefix: String,
    /// The realm's name in the books; empty takes the network's own name (its `NETWORK=`) or,
    /// failing that, `server`.
    pub network: String,
    /// A PEM file of certificates to trust besides the system's roots (a self-signed server).
    pub tls_ca_file: String,
    /// Lines Herald may send at once before the rate applies.
    pub send_burst: u32,
    /// Lines per second once the burst is spent.
    pub send_per_sec: f64,
    /// Several networks, one connection each (`[irc.networks.NAME]`, each with the keys of
    /// `[irc]`, its `network` defaulting to NAME); when any is listed, they are the connections.
    pub networks: std::collections::BTreeMap<String, IrcConfig>,
    /// The first wait before reconnecting, in milliseconds; it doubles on each failure.
    pub reconnect_min_ms: u64,
    /// The longest wait before reconnecting, in milliseconds.
    pub reconnect_max_ms: u64,
}

impl Default for IrcConfig {
    fn default() -> Self {
        IrcConfig {
            server: "127.0.0.1".into(),
            port: 6667,
            tls: false,
            nick: "herald".into(),
            channels: vec!["#lists".into()],
            prefix: "!".into(),
            network: String::new(),
            tls_ca_file: String::new(),
            send_burst: 5,
            send_per_sec: 1.0,
            reconnect_min_ms: 2_000,
            reconnect_max_ms: 300_000,
            networks: Default::default(),
        }
    }
}

impl IrcConfig {
    /// The characters that start a command.
    pub fn prefixes(&self) -> Vec<char> {
        self.prefix.chars().collect()
    }

    /// Checks what serde cannot; the message says which key is wrong and why.
    pub fn check(&self) -> Result<()> {
        if self.prefix.is_empty() || self.prefix.chars().any(char::is_whitespace) {
            bail!("[irc] prefix must be one or more characters without spaces, such as \"!\"");
        }
        if self.nick.is_empty() || self.nick.contains(|c: char| c.is_whitespace() || c == ':') {
            bail!("[irc] nick must be one word");
        }
        if self.server.is_empty() {
            bail!("[irc] server must name a host");
        }
        if let Some(bad) = self
            .channels
            .iter()
            .find(|c| c.is_empty() || c.contains([' ', ',', '\x07']))
        {
            bail!("[irc] channels: '{bad}' is not a channel name");
        }
        if self.send_burst == 0 {
            bail!("[irc] send_burst must be at least 1");
        }
        if !(self.send_per_sec.is_finite() && self.send_per_sec > 0.0) {
            bail!("[irc] send_per_sec must be a number of lines per second above 0");
        }
        if self.reconnect_min_ms == 0 || self.reconnect_min_ms > self.reconnect_max_ms {
            bail!("[irc] reconnect_min_ms must be at least 1 and at most reconnect_max_ms");
        }
        Ok(())
    }
}

/// `[discord]`
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// The environment variable that holds the bot token.
    pub token_env: String,
    /// Register slash commands to these guilds only (for development).
    pub guild_ids: Vec<u64>,
    /// A REST base URL instead of discord.com.
    pub proxy: String,
    /// Also read chat messages with a prefix (`!roll 100`); needs the privileged Message
    /// Content intent, so it is off by default.
    pub prefix_commands: bool,
    /// The shards this process runs, `"0-3"` or `"2"`; empty runs them all (as many as Discord
    /// advises, or `shard_total`). A guild's channels live in the process owning its shard,
    /// `(guild_id >> 22) % shard_total`; private messages come on shard 0.
    pub shards: String,
    /// How many shards the bot runs across every process; needed with `shards`.
    pub shard_total: u32,
}

/// The shards a process runs: `range` of `total`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shards {
    /// This process's shards.
    pub range: std::ops::Range<u32>,
    /// Every process's shards together.
    pub total: u32,
}

impl Shards {
    /// Whether this process owns the guild's shard, where its channels live.
    pub fn owns_guild(&self, guild: u64) -> bool {
        let shard = (guild >> 22) % u64::from(self.total);
        self.range.contains(&(shard as u32))
    }

    /// Whether this process owns shard 0: it answers private messages and registers the slash
    /// commands.
    pub fn owns_first(&self) -> bool {
        self.range.contains(&0)
    }
}

impl DiscordConfig {
    /// The shards this process runs; `None` for all (Discord's advice, or `shard_total` of
    /// them when set). A bad value is refused naming the key.
    pub fn shards(&self) -> Result<Option<Shards>> {
        let text = self.shards.trim();
        if text.is_empty() {
            return Ok((self.shard_total > 0).then_some(Shards {
                range: 0..self.shard_total,
                total: self.shard_total,
            }));
        }
        let number = |n: &str| {
            n.trim().parse::<u32>().map_err(|_| {
                anyhow::anyhow!(
                    "[discord] shards = \"{text}\" is not a shard or a range of shards, such as \"0-3\" or \"2\""
                )
            })
        };
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        if first > last {
            bail!("[discord] shards = \"{text}\" runs backwards: write the lower shard first, such as \"{last}-{first}\"");
        }
        if self.shard_total == 0 {
            bail!("[discord] shards needs shard_total, the number of shards across every process");
        }
        if last >= self.shard_total {
            bail!(
                "[discord] shards = \"{text}\" names shard {last}, beyond shard_total = {} (shards are numbered from 0 to {})",
                self.shard_total,
                self.shard_total - 1
            );
        }
        Ok(Some(Shards {
            range: first..last + 1,
            total: self.shard_total,
        }))
    }
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig {
            token_env: "DISCORD_TOKEN".into(),
            guild_ids: Vec::new(),
            proxy: String::new(),
            prefix_commands: false,
            shards: String::new(),
            shard_total: 0,
        }
    }
}

/// `[permissions]`
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Permissions {
    /// User names (console, script, IRC) or Discord user ids who edit the books.
    pub admins: Vec<String>,
    /// User names or ids who run tournaments.
    pub moderators: Vec<String>,
    /// Discord roles whose members are moderators.
    pub moderator_roles: Vec<String>,
}

impl Permissions {
    /// Whether `user` is an admin (case-insensitive for names).
    pub fn is_admin(&self, user: &str) -> bool {
        self.admins.iter().any(|a| a.eq_ignore_ascii_case(user))
    }

    /// Whether `user` is a moderator; admins are moderators too.
    pub fn is_moderator(&self, user: &str) -> bool {
        self.is_admin(user) || self.moderators.iter().any(|m| m.eq_ignore_ascii_case(user))
    }
}

impl Config {
    /// Reads and checks a configuration file.
    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the configuration file {}", path.display()))?;
        let config: Config = toml::from_str(&text)
            .with_context(|| format!("{} is not a valid configuration", path.display()))?;
        config.check()?;
        Ok(config)
    }

    /// The configuration at `path` if given, else the defaults.
    pub fn load_or_default(path: Option<&Path>) -> Result<Config> {
        match path {
            Some(p) => Config::load(p),
            None => Ok(Config::default()),
        }
    }

    /// Checks what serde cannot: the time zone and the timeouts.
    pub fn check(&self) -> Result<()> {
        self.timezone()?;
        check_timeouts(
            "[realm]",
            Some(self.realm.decision_timeout_secs),
            Some(self.realm.challenge_timeout_secs),
        )?;
        if self.console.prefixes.is_empty() {
            bail!("[console] prefixes must name at least one character");
        }
        for irc in self.irc_connections() {
            irc.check()?;
        }
        self.check_realms()?;
        if let Some(discord) = &self.discord {
            discord.shards()?;
        }
        self.games.check()?;
        crate::games::check(self)?;
        if self.web.bind.parse::<std::net::SocketAddr>().is_err() {
            bail!(
                "[web] bind = \"{}\" is not an address and port, such as \"127.0.0.1:8080\"",
                self.web.bind
            );
        }
        Ok(())
    }

    /// Every IRC connection to make: `[irc.networks.*]` when listed, else `[irc]` itself.
    pub fn irc_connections(&self) -> Vec<IrcConfig> {
        let Some(irc) = &self.irc else {
            return Vec::new();
        };
        if irc.networks.is_empty() {
            return vec![irc.clone()];
        }
        irc.networks
            .iter()
            .map(|(name, net)| {
                let mut net = net.clone();
                if net.network.is_empty() {
                    net.network = name.clone();
                }
                net.networks.clear();
                net
            })
            .collect()
    }

    /// The realm a place belongs to: the `[realms.NAME]` listing it (an IRC network by name,
    /// case aside; a Discord guild by id), else the place itself, as a realm of its own.
    pub fn realm_of<'a>(&'a self, place: &'a str) -> &'a str {
        let guild = place.parse::<u64>().ok();
        self.realms
            .iter()
            .find(|(_, r)| {
                r.irc_networks.iter().any(|n| n.eq_ignore_ascii_case(place))
                    || guild.is_some_and(|g| r.discord_guilds.contains(&g))
            })
            .map_or(place, |(name, _)| name.as_str())
    }

    /// Whether `place` is in a realm of another name (a `[realms.NAME]` listing it).
    pub fn is_joined(&self, place: &str) -> bool {
        self.realm_of(place) != place
    }

    /// Who rules `realm`: its `[realms.NAME]` admins and moderators, or `[permissions]` for a
    /// realm that names none.
    pub fn permissions_of(&self, realm: &str) -> std::borrow::Cow<'_, Permissions> {
        match self.realms.get(realm) {
            Some(r) if !(r.admins.is_empty() && r.moderators.is_empty()) => {
                std::borrow::Cow::Owned(Permissions {
                    admins: r.admins.clone(),
                    moderators: r.moderators.clone(),
                    moderator_roles: if r.moderator_roles.is_empty() {
                        self.permissions.moderator_roles.clone()
                    } else {
                        r.moderator_roles.clone()
                    },
                })
            }
            _ => std::borrow::Cow::Borrowed(&self.permissions),
        }
    }

    fn check_realms(&self) -> Result<()> {
        let mut seen: std::collections::HashMap<String, &str> = Default::default();
        for (name, realm) in &self.realms {
            if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '/') {
                bail!("[realms.{name}]: a realm's name is one word without '/'");
            }
            if let Some(tz) = &realm.timezone {
                parse_timezone(&format!("[realms.{name}]"), tz)?;
            }
            check_timeouts(
                &format!("[realms.{name}]"),
                realm.decision_timeout_secs,
                realm.challenge_timeout_secs,
            )?;
            let places = realm
                .irc_networks
                .iter()
                .map(|n| n.to_lowercase())
                .chain(realm.discord_guilds.iter().map(u64::to_string));
            for place in places {
                if let Some(other) = seen.insert(place.clone(), name) {
                    bail!(
                        "[realms.{name}] names {place}, which [realms.{other}] names too: a place is in one realm"
                    );
                }
            }
        }
        Ok(())
    }

    /// The realm's time zone (R25).
    pub fn timezone(&self) -> Result<Tz> {
        parse_timezone("[realm]", &self.realm.timezone)
    }

    /// The settings of the realm named `realm`: its `[realms.NAME]` time zone and timeouts
    /// where it gives them, else `[realm]`'s.
    pub fn realm_settings(&self, realm: &str) -> RealmConfig {
        let mut settings = self.realm.clone();
        if let Some(own) = self.realms.get(realm) {
            if let Some(tz) = &own.timezone {
                settings.timezone = tz.clone();
            }
            if let Some(secs) = own.decision_timeout_secs {
                settings.decision_timeout_secs = secs;
            }
            if let Some(secs) = own.challenge_timeout_secs {
                settings.challenge_timeout_secs = secs;
            }
        }
        settings
    }
}

/// The longest a decision or a challenge may be given: 30 days. A longer one would be no
/// deadline at all, and one past the calendar's end could not be reckoned.
pub const MAX_TIMEOUT_SECS: u64 = 30 * 86_400;

/// Checks the timeouts `section` gives: each from 1 second to [`MAX_TIMEOUT_SECS`].
fn check_timeouts(section: &str, decision: Option<u64>, challenge: Option<u64>) -> Result<()> {
    for (key, secs) in [
        ("decision_timeout_secs", decision),
        ("challenge_timeout_secs", challenge),
    ] {
        if let Some(secs) = secs.filter(|s| !(1..=MAX_TIMEOUT_SECS).contains(s)) {
            bail!("{section} {key} must be from 1 to {MAX_TIMEOUT_SECS} (30 days); it is {secs}");
        }
    }
    Ok(())
}

/// The time zone `name` of `section`, or the line saying what to write instead.
pub fn parse_timezone(section: &str, name: &str) -> Result<Tz> {
    let trimmed = name.trim();
    // The tz database keeps a few abbreviations and POSIX rules for old systems ("EST",
    // "CET", "EST5EDT"): a fixed offset, or a rule that is no place's law. README refuses
    // them, so that a realm's day follows a place's clocks, summer time included.
    if ABBREVIATIONS
        .iter()
        .any(|a| a.eq_ignore_ascii_case(trimmed))
    {
        bail!(
            "{section} timezone '{trimmed}' is an abbreviation, not a place: write the IANA name of a place, such as \"America/New_York\" for EST or \"Europe/Paris\" for CET (or \"UTC\")"
        );
    }
    name.parse::<Tz>().map_err(|_| {
        anyhow::anyhow!(
            "{section} timezone '{name}' is not an IANA time zone such as \"UTC\" or \"Europe/Paris\""
        )
    })
}

/// The tz database's names that are abbreviations or POSIX rules, not places: refused.
const ABBREVIATIONS: &[&str] = &[
    "EST", "MST", "HST", "CET", "EET", "MET", "WET", "EST5EDT", "CST6CDT", "MST7MDT", "PST8PDT",
];

#[cfg(test)]
mod tests {
    use super::*;

    // A timeout of no time, or of more than 30 days, is refused at start-up in its section,
    // not met as a panic at the first fight's deadline.
    #[test]
    fn timeouts_are_checked_in_their_section() {
        let refused = |text: &str| {
            toml::from_str::<Config>(text)
                .unwrap()
                .check()
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused("[realm]\ndecision_timeout_secs = 0\n"),
            "[realm] decision_timeout_secs must be from 1 to 2592000 (30 days); it is 0"
        );
        assert_eq!(
            refused("[realm]\nchallenge_timeout_secs = 99999999999999999\n"),
            "[realm] challenge_timeout_secs must be from 1 to 2592000 (30 days); it is 99999999999999999"
        );
        assert_eq!(
            refused("[realms.east]\nirc_networks = [\"tokyo\"]\ndecision_timeout_secs = 2592001\n"),
            "[realms.east] decision_timeout_secs must be from 1 to 2592000 (30 days); it is 2592001"
        );
        let fine: Config = toml::from_str("[realm]\ndecision_timeout_secs = 2592000\n").unwrap();
        assert!(fine.check().is_ok());
    }

    /// `config.example.toml` with its commented-out `[irc]` section enabled, as a user would:
    /// `# [irc]` and each `# key = value` line after it, to the blank line, lose their `# `.
    fn example_with_irc() -> String {
        let mut in_irc = false;
        include_str!("../../config.example.toml")
            .lines()
            .map(|line| {
                if line == "# [irc]" {
                    in_irc = true;
                    return "[irc]".to_string();
                }
                if line.is_empty() {
                    in_irc = false;
                }
                let key = |rest: &str| {
                    rest.split_once(" = ").is_some_and(|(k, _)| {
                        !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                    })
                };
                match line.strip_prefix("# ") {
                    Some(rest) if in_irc && key(rest) => rest.to_string(),
                    _ => line.to_string(),
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    // README, "Running on IRC": the example as copied runs the console room alone; its [irc]
    // section is there to uncomment.
    #[test]
    fn the_example_configuration_as_copied_enables_no_transport() {
        let text = include_str!("../../config.example.toml");
        let config: Config = toml::from_str(text).expect("config.example.toml parses");
        config.check().expect("config.example.toml is valid");
        assert!(config.irc.is_none() && config.discord.is_none());
    }

    #[test]
    fn the_example_configuration_parses() {
        let text = example_with_irc();
        let config: Config = toml::from_str(&text).expect("config.example.toml parses");
        config.check().expect("config.example.toml is valid");
        assert_eq!(config.realm.timezone, "UTC");
        assert_eq!(config.realm.decision_timeout_secs, 120);
        assert_eq!(config.irc.as_ref().map(|i| i.prefix.as_str()), Some("!"));
        assert!(config.permissions.is_admin("alice"));
        assert!(config.permissions.is_moderator("bob"));
        assert!(config.permissions.is_moderator("Alice"));
        assert!(!config.permissions.is_moderator("carol"));
    }

    #[test]
    fn an_empty_file_is_all_defaults() {
        let config: Config = toml::from_str("").unwrap();
        assert!(config.irc.is_none() && config.discord.is_none());
        assert_eq!(config.database.path, PathBuf::from("herald.db"));
    }

    #[test]
    fn a_bad_time_zone_is_refused_with_the_reason() {
        let config: Config = toml::from_str("[realm]\ntimezone = \"Mars/Olympus\"").unwrap();
        let err = config.check().unwrap_err().to_string();
        assert!(err.contains("Mars/Olympus"), "{err}");
    }

    // README, "Troubleshooting": abbreviations are refused, with a place to write instead.
    #[test]
    fn an_abbreviated_time_zone_is_refused_with_a_place_to_write() {
        for abbreviation in ["EST", "CET", "est5edt"] {
            let config: Config =
                toml::from_str(&format!("[realm]\ntimezone = \"{abbreviation}\"")).unwrap();
            let err = config.check().unwrap_err().to_string();
            assert!(err.contains(abbreviation), "{err}");
            assert!(err.contains("is an abbreviation, not a place"), "{err}");
        }
        for place in ["UTC", "Europe/Paris", "America/New_York"] {
            let config: Config =
                toml::from_str(&format!("[realm]\ntimezone = \"{place}\"")).unwrap();
            config.check().unwrap();
        }
    }

    #[test]
    fn irc_settings_are_checked() {
        let irc = |extra: &str| -> IrcConfig {
            let config: Config = toml::from_str(&format!("[irc]\n{extra}")).unwrap();
            config.irc.unwrap()
        };
        assert!(irc("").check().is_ok());
        // The example shows the defaults, and they pass.
        let example: Config = toml::from_str(&example_with_irc()).unwrap();
        let (shown, default) = (example.irc.unwrap(), IrcConfig::default());
        assert!(shown.check().is_ok());
        assert_eq!(
            (
                shown.send_burst,
                shown.send_per_sec,
                shown.network,
                shown.tls_ca_file
            ),
            (
                default.send_burst,
                default.send_per_sec,
                default.network,
                default.tls_ca_file
            )
        );
        assert_eq!(
            (shown.reconnect_min_ms, shown.reconnect_max_ms, shown.prefix),
            (
                default.reconnect_min_ms,
                default.reconnect_max_ms,
                default.prefix
            )
        );
        assert_eq!(irc("prefix = \"!.\"").prefixes(), vec!['!', '.']);
        for (bad, key) in [
            ("prefix = \"\"", "prefix"),
            ("nick = \"two words\"", "nick"),
            ("channels = [\"#a,#b\"]", "channels"),
            ("send_burst = 0", "send_burst"),
            ("send_per_sec = 0.0", "send_per_sec"),
            ("send_per_sec = nan", "send_per_sec"),
            (
                "reconnect_min_ms = 5000\nreconnect_max_ms = 10",
                "reconnect_min_ms",
            ),
        ] {
            let err = irc(bad).check().unwrap_err().to_string();
            assert!(err.contains(key), "{bad}: {err}");
        }
    }

    #[test]
    fn an_unknown_key_is_refused() {
        assert!(toml::from_str::<Config>("[realm]\ntimezon = \"UTC\"").is_err());
    }

    #[test]
    fn discord_shards_are_a_range_of_shard_total_and_bad_ones_name_the_key() {
        let discord = |shards: &str, total: u32| DiscordConfig {
            shards: shards.into(),
            shard_total: total,
            ..DiscordConfig::default()
        };
        assert_eq!(discord("", 0).shards().unwrap(), None);
        assert_eq!(
            discord("", 4).shards().unwrap(),
            Some(Shards {
                range: 0..4,
                total: 4
            })
        );
        let some = discord("0-3", 8).shards().unwrap().unwrap();
        assert_eq!(
            some,
            Shards {
                range: 0..4,
                total: 8
            }
        );
        assert_eq!(
            discord(" 5 ", 8).shards().unwrap(),
            Some(Shards {
                range: 5..6,
                total: 8
            })
        );
        for (shards, total, says) in [
            ("3-1", 8, "runs backwards"),
            ("0-8", 8, "beyond shard_total = 8"),
            ("9", 8, "names shard 9"),
            ("0-3", 0, "needs shard_total"),
            ("a-b", 8, "is not a shard"),
            ("1-", 8, "is not a shard"),
        ] {
            let err = discord(shards, total).shards().unwrap_err().to_string();
            assert!(err.starts_with("[discord] shards"), "{shards}: {err}");
            assert!(err.contains(says), "{shards}: {err}");
        }
        // Start-up refuses them too, through the configuration's check.
        let config: Config =
            toml::from_str("[discord]\nshards = \"3-1\"\nshard_total = 8\n").unwrap();
        assert!(config
            .check()
            .unwrap_err()
            .to_string()
            .contains("[discord] shards"));
        // A guild's shard is (id >> 22) % total: 0-3 of 8 own shards 0 to 3, and shard 0's
        // private messages.
        let guild_on = |shard: u64| (shard << 22) + 12_345;
        assert!(some.owns_guild(guild_on(0)) && some.owns_guild(guild_on(3)));
        assert!(!some.owns_guild(guild_on(4)) && !some.owns_guild(guild_on(7)));
        assert!(some.owns_guild(guild_on(11)), "shard 11 % 8 = 3");
        assert!(some.owns_first());
        assert!(!discord("4-7", 8).shards().unwrap().unwrap().owns_first());
    }

    #[test]
    fn realms_join_places_and_name_their_own_moderators() {
        let config: Config = toml::from_str(
            r#"
            [permissions]
            moderators = ["boss"]
            [realms.albion]
            irc_networks = ["Libera"]
            discord_guilds = [42]
            admins = ["queen"]
            [irc.networks.libera]
            server = "irc.libera.chat"
            [irc.networks.oftc]
            server = "irc.oftc.net"
            network = "OFTC"
            "#,
        )
        .unwrap();
        config.check().unwrap();
        assert_eq!(config.realm_of("libera"), "albion");
        assert_eq!(config.realm_of("42"), "albion");
        assert_eq!(config.realm_of("43"), "43");
        assert_eq!(config.realm_of("OFTC"), "OFTC");
        assert!(config.permissions_of("albion").is_admin("queen"));
        assert!(!config.permissions_of("albion").is_moderator("boss"));
        assert!(config.permissions_of("OFTC").is_moderator("boss"));
        let nets: Vec<(String, String)> = config
            .irc_connections()
            .into_iter()
            .map(|c| (c.server, c.network))
            .collect();
        assert_eq!(
            nets,
            [
                ("irc.libera.chat".to_string(), "libera".to_string()),
                ("irc.oftc.net".to_string(), "OFTC".to_string())
            ]
        );
        // The old single `[irc]` is still one connection.
        let one: Config = toml::from_str("[irc]\nserver = \"a.example\"\n").unwrap();
        assert_eq!(one.irc_connections().len(), 1);
        // A place is in one realm.
        let twice: Config = toml::from_str(
            "[realms.a]\nirc_networks = [\"x\"]\n[realms.b]\nirc_networks = [\"X\"]\n",
        )
        .unwrap();
        let err = twice.check().unwrap_err().to_string();
        assert!(
            err.contains("[realms.b] names x") && err.contains("[realms.a]"),
            "{err}"
        );
    }
}
