//! Herald on a real IRC server: a real `ngircd` on 127.0.0.1, Herald's IRC transport in process
//! against it, and players who are plain IRC clients over TCP. Nothing but 127.0.0.1 is ever
//! contacted; every wait has a deadline, and every wait is for a line, never for a time.

mod common;
use common::Books;
use herald_bot::app::App;
use herald_bot::clock::Clock;
use herald_bot::config::Config;
use herald_bot::hub::Hub;
use herald_bot::store::Store;
use herald_bot::transport::irc;
use sqlx::Row;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio::time::timeout;

/// The longest any one expected line may take to come.
const WAIT: Duration = Duration::from_secs(20);

const DARA: &str = "!knight create Dara --top observe,dodge,sword --psi hypercognition:20,apportation:20 --monarch seonaid --dame";
const EOIN: &str =
    "!knight create Eoin --top lance,shield,ride --psi mesmerism:20,negapsi:20 --monarch llewellyn";

/// Pass 1 of the practice joust (as in `transcripts/declined.txt`): both fail Observe, Dara
/// fails Ride, Eoin rides and earns +15 (Joust 2A); Eoin's Lance 30 hits, Dara's Shield 50
/// fails against 15 (R5 weaken): unhorsed.
const JOUST_DICE: [u32; 6] = [90, 90, 90, 20, 30, 50];

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

/// Polls until `port` on 127.0.0.1 accepts a connection, a bounded number of times.
async fn wait_listening(port: u16) {
    for _ in 0..1200 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("nothing listens on 127.0.0.1:{port} after 30s");
}

/// RFC 7919's ffdhe2048 group, public and standard: given to ngircd so that it does not spend
/// seconds generating Diffie-Hellman parameters of its own at start-up.
const FFDHE2048: &str = "-----BEGIN DH PARAMETERS-----
MIIBCAKCAQEA//////////+t+FRYortKmq/cViAnPTzx2LnFg84tNpWp4TZBFGQz
+8yTnc4kmz75fS/jY2MMddj2gbICrsRhetPfHtXV/WVhJDP1H18GbtCFY2VVPe0a
87VXE15/V8k1mE8McODmi3fipona8+/och3xWKE2rec1MKzKT0g6eXq8CrGCsyT7
YdEIqUuyyOP7uWrat2DX9GgdT0Kj3jlN9K5W7edjcrsZCwenyO4KbXCeAvzhzffi
7MA0BM0oNC9hkXL+nOmFg/+OTxIy7vKBg8P+OxtMb61zO7X8vC7CIAXFjvGDfRaD
ssbzSibBsu/6iGtCOGEoXJf//////////wIBAg==
-----END DH PARAMETERS-----
";

/// A certificate and key for 127.0.0.1, the certificate also being its own root.
struct TlsFiles {
    cert: PathBuf,
    key: PathBuf,
}

/// A real ngircd in the foreground, killed when dropped.
struct Ngircd {
    dir: tempfile::TempDir,
    port: u16,
    tls_port: Option<u16>,
    child: Option<Child>,
}

impl Ngircd {
    /// A running ngircd, or `None` (said on standard error) when none is installed: the IRC
    /// tests then skip. `.ci/run` installs it (as root, on Debian); elsewhere
    /// `apt-get install ngircd`, `brew install ngircd`, or `cargo test --workspace` without it.
    async fn start(tls: bool) -> Option<Ngircd> {
        if Self::binary().is_none() {
            eprintln!(
                "SKIPPED: no ngircd binary found (not /usr/sbin/ngircd, not on PATH), so this IRC test does not run. \
                 Install ngircd (apt-get install ngircd) to run it; .ci/run installs it as root on Debian."
            );
            return None;
        }
        let dir = tempfile::tempdir().expect("a temp dir");
        // ngircd started as root runs as nobody: it must still read its files.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let port = free_port();
        let tls_port = tls.then(free_port);
        let include = dir.path().join("conf.d");
        std::fs::create_dir(&include).unwrap();
        let mut conf = format!(
            "[Global]\n\
             Name = irc.test\n\
             Network = TestNet\n\
             Info = Herald's test lists\n\
             AdminInfo1 = Herald tests\n\
             AdminEMail = nobody@irc.test\n\
             Listen = 127.0.0.1\n\
             Ports = {port}\n\
             MotdPhrase = Welcome to the lists\n\
             [Limits]\n\
             MaxNickLength = 30\n\
             MaxConnectionsIP = 0\n\
             MaxPenaltyTime = 0\n\
             [Options]\n\
             PAM = no\n\
             DNS = no\n\
             Ident = no\n\
             IncludeDir = {}\n",
            include.display()
        );
        if let Some(tls_port) = tls_port {
            let files = self_signed(dir.path());
            let dh = dir.path().join("dh.pem");
            std::fs::write(&dh, FFDHE2048).unwrap();
            conf.push_str(&format!(
                "[SSL]\nCertFile = {}\nKeyFile = {}\nDHFile = {}\nPorts = {tls_port}\n",
                files.cert.display(),
                files.key.display(),
                dh.display()
            ));
        }
        std::fs::write(dir.path().join("ngircd.conf"), conf).unwrap();
        let mut server = Ngircd {
            dir,
            port,
            tls_port,
            child: None,
        };
        server.spawn().await;
        Some(server)
    }

    /// The ngircd binary: Debian's `/usr/sbin/ngircd`, or one on `PATH`.
    fn binary() -> Option<PathBuf> {
        let debian = Path::new("/usr/sbin/ngircd");
        if debian.exists() {
            return Some(debian.to_path_buf());
        }
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join("ngircd"))
                .find(|p| p.is_file())
        })
    }

    async fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.path().join("ngircd.log"))
            .unwrap();
        let binary = Self::binary().expect("ngircd was found at the start");
        let child = std::process::Command::new(binary)
            .arg("-n")
            .arg("-f")
            .arg(self.dir.path().join("ngircd.conf"))
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("ngircd runs (apt-get install ngircd)");
        self.child = Some(child);
        wait_listening(self.port).await;
        if let Some(tls_port) = self.tls_port {
            wait_listening(tls_port).await;
        }
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    fn ca(&self) -> PathBuf {
        self.dir.path().join("cert.pem")
    }
}

impl Drop for Ngircd {
    fn drop(&mut self) {
        self.stop();
    }
}

fn self_signed(dir: &Path) -> TlsFiles {
    let key = rcgen::generate_simple_self_signed(vec!["127.0.0.1".to_string()])
        .expect("a self-signed certificate");
    let files = TlsFiles {
        cert: dir.join("cert.pem"),
        key: dir.join("key.pem"),
    };
    std::fs::write(&files.cert, key.cert.pem()).unwrap();
    std::fs::write(&files.key, key.key_pair.serialize_pem()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&files.key, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    files
}

/// A TCP relay between Herald and the server that the test opens and shuts: while shut, every
/// connection is dropped at once, so Herald keeps retrying with its backoff.
struct Gate {
    port: u16,
    open: Arc<AtomicBool>,
    task: JoinHandle<()>,
}

impl Gate {
    async fn new(upstream: u16) -> Gate {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(AtomicBool::new(true));
        let task = tokio::spawn({
            let open = open.clone();
            async move {
                while let Ok((mut down, _)) = listener.accept().await {
                    if !open.load(Ordering::SeqCst) {
                        continue;
                    }
                    tokio::spawn(async move {
                        if let Ok(mut up) = TcpStream::connect(("127.0.0.1", upstream)).await {
                            let _ = tokio::io::copy_bidirectional(&mut down, &mut up).await;
                        }
                    });
                }
            }
        });
        Gate { port, open, task }
    }

    fn set_open(&self, open: bool) {
        self.open.store(open, Ordering::SeqCst);
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Herald's IRC transport, in process, on its own books.
struct Herald {
    hub: Arc<Hub>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<anyhow::Result<()>>,
}

impl Herald {
    async fn start(db: &Path, irc_settings: &str) -> Herald {
        let config: Config = toml::from_str(&format!("[irc]\n{irc_settings}")).unwrap();
        let irc_config = config.irc.clone().unwrap();
        let store = Store::open(db).await.expect("the database opens");
        let app = Arc::new(App::new(store, config, Some(7)).unwrap());
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let hub = Arc::new(Hub::live(
            app,
            Arc::new(Clock::live()),
            irc_config.prefixes(),
            tx,
        ));
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn({
            let hub = hub.clone();
            async move {
                irc::run(&hub, &irc_config, rx, async {
                    let _ = stopped.await;
                })
                .await
            }
        });
        Herald {
            hub,
            stop: Some(stop),
            task,
        }
    }

    fn dice(&self, values: &[u32]) {
        self.hub.app().queue.push(values.iter().copied());
    }

    async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let result = timeout(WAIT, &mut self.task)
            .await
            .expect("Herald stops")
            .expect("the transport task");
        assert!(result.is_ok(), "{result:?}");
    }
}

fn settings(port: u16) -> String {
    format!(
        "server = \"127.0.0.1\"\nport = {port}\nnick = \"herald\"\nchannels = [\"#lists\"]\n\
         send_burst = 1000\nsend_per_sec = 1000.0\nreconnect_min_ms = 50\nreconnect_max_ms = 500\n"
    )
}

/// One line from the server, split as IRC has it.
#[derive(Clone, Debug)]
struct Msg {
    raw: String,
    from: String,
    command: String,
    params: Vec<String>,
}

impl Msg {
    fn parse(raw: &str) -> Msg {
        let mut rest = raw.trim_end_matches(['\r', '\n']);
        if rest.starts_with('@') {
            rest = rest.split_once(' ').map(|(_, r)| r).unwrap_or("");
        }
        let mut from = String::new();
        if let Some(r) = rest.strip_prefix(':') {
            let (prefix, r) = r.split_once(' ').unwrap_or((r, ""));
            from = prefix.split('!').next().unwrap_or("").to_string();
            rest = r;
        }
        let (head, trailing) = match rest.split_once(" :") {
            Some((h, t)) => (h, Some(t)),
            None => (rest, None),
        };
        let mut words = head.split_whitespace().map(str::to_string);
        let command = words.next().unwrap_or_default();
        let mut params: Vec<String> = words.collect();
        params.extend(trailing.map(str::to_string));
        Msg {
            raw: raw.to_string(),
            from,
            command,
            params,
        }
    }

    /// The text of a PRIVMSG from `nick` to `target`.
    fn privmsg(&self, nick: &str, target: &str) -> Option<&str> {
        (self.command == "PRIVMSG"
            && self.from.eq_ignore_ascii_case(nick)
            && self
                .params
                .first()
                .is_some_and(|t| t.eq_ignore_ascii_case(target)))
        .then(|| self.params.get(1).map(String::as_str))
        .flatten()
    }
}

/// A player: a minimal IRC client over TCP.
struct Player {
    nick: String,
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
    heard: Vec<Msg>,
}

impl Player {
    async fn connect(port: u16, nick: &str) -> Player {
        let stream = timeout(WAIT, TcpStream::connect(("127.0.0.1", port)))
            .await
            .expect("connects in time")
            .expect("connects");
        let (read, write) = stream.into_split();
        let mut player = Player {
            nick: nick.to_string(),
            reader: BufReader::new(read),
            writer: write,
            heard: Vec::new(),
        };
        player
            .send(&format!("NICK {nick}\r\nUSER {nick} 0 * :{nick}"))
            .await;
        player.wait_for(|m| m.command == "001").await;
        player
    }

    async fn send(&mut self, line: &str) {
        self.writer
            .write_all(format!("{line}\r\n").as_bytes())
            .await
            .expect("the server takes a line");
    }

    async fn say(&mut self, target: &str, text: &str) {
        self.send(&format!("PRIVMSG {target} :{text}")).await;
    }

    /// The next line; answers PINGs; checks that no line of Herald's breaks the 512-byte rule.
    async fn next(&mut self) -> Option<Msg> {
        let mut buf = Vec::new();
        let n = self.reader.read_until(b'\n', &mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        let raw = String::from_utf8_lossy(&buf).to_string();
        let msg = Msg::parse(&raw);
        if msg.from.eq_ignore_ascii_case("herald") {
            assert!(
                buf.len() <= 512 && buf.ends_with(b"\r\n"),
                "a line of {} bytes: {raw:?}",
                buf.len()
            );
        }
        if msg.command == "PING" {
            let token = msg.params.first().cloned().unwrap_or_default();
            self.send(&format!("PONG :{token}")).await;
        }
        self.heard.push(msg.clone());
        Some(msg)
    }

    /// Reads until a line satisfies `pred`; fails the test after `WAIT`.
    async fn wait_for(&mut self, pred: impl Fn(&Msg) -> bool) -> Msg {
        let nick = self.nick.clone();
        let found = timeout(WAIT, async {
            while let Some(m) = self.next().await {
                if pred(&m) {
                    return Some(m);
                }
            }
            None
        })
        .await;
        match found {
            Ok(Some(m)) => m,
            Ok(None) => panic!(
                "{nick}: the server closed the connection; heard:\n{}",
                self.log()
            ),
            Err(_) => panic!(
                "{nick}: nothing expected came in {WAIT:?}; heard:\n{}",
                self.log()
            ),
        }
    }

    /// Waits for Herald to say something containing `needle` to `target`; returns the text.
    async fn hear(&mut self, target: &str, needle: &str) -> String {
        let m = self
            .wait_for(|m| {
                m.privmsg("herald", target)
                    .is_some_and(|t| t.contains(needle))
            })
            .await;
        m.privmsg("herald", target).unwrap_or_default().to_string()
    }

    /// Joins `channel` and waits until Herald sits in it too.
    async fn join_with_herald(&mut self, channel: &str) {
        self.send(&format!("JOIN {channel}")).await;
        let names = self
            .wait_for(|m| m.command == "353" || m.command == "366")
            .await;
        let present = names.command == "353"
            && names.params.last().is_some_and(|n| {
                n.split(' ')
                    .any(|n| n.trim_start_matches(['@', '+']) == "herald")
            });
        if !present {
            self.wait_for(|m| m.command == "JOIN" && m.from == "herald")
                .await;
        }
    }

    fn log(&self) -> String {
        self.heard
            .iter()
            .map(|m| m.raw.trim_end())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether Herald said `needle` to `target` in anything heard so far.
    fn has_heard(&self, target: &str, needle: &str) -> bool {
        self.heard.iter().any(|m| {
            m.privmsg("herald", target)
                .is_some_and(|t| t.contains(needle))
        })
    }
}

/// Two players in #lists with their knights, Herald already there.
async fn knights(server: &Ngircd) -> (Player, Player) {
    let mut dana = Player::connect(server.port, "dana").await;
    dana.join_with_herald("#lists").await;
    let mut evan = Player::connect(server.port, "evan").await;
    evan.join_with_herald("#lists").await;
    dana.say("#lists", DARA).await;
    dana.hear("#lists", "Dame Dara is dubbed").await;
    evan.say("#lists", EOIN).await;
    dana.hear("#lists", "Sir Eoin is dubbed").await;
    (dana, evan)
}

async fn ledger(db: &Path) -> Vec<(String, i64, String, String)> {
    let store = Store::open(db).await.unwrap();
    sqlx::query(
        "SELECT k.name, l.hp_halves, l.kind, r.name AS realm FROM ledger l \
         JOIN knights k ON k.id = l.knight_id JOIN realms r ON r.id = k.realm_id ORDER BY l.id",
    )
    .fetch_all(store.pool())
    .await
    .unwrap()
    .iter()
    .map(|r| {
        (
            r.get("name"),
            r.get("hp_halves"),
            r.get("kind"),
            r.get("realm"),
        )
    })
    .collect()
}

// A whole practice joust driven by two players on IRC, with `!roll 100` on the way; the award
// (1 HP, 2 half points, Joust 7: the unhorser wins; R41: Swordplay declined) lands in the books
// of the realm named by the network (NETWORK=TestNet).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_practice_joust_on_irc_ends_in_the_books() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let herald = Herald::start(&books.path(), &settings(server.port)).await;
    let (mut dana, mut evan) = knights(&server).await;

    herald.dice(&[42]);
    dana.say("#lists", "!roll 100").await;
    assert_eq!(
        evan.hear("#lists", "rolls").await,
        "dana rolls 1d100: [42] = 42"
    );

    dana.say("#lists", "!joust evan").await;
    evan.hear("#lists", "challenges Sir Eoin").await;
    herald.dice(&JOUST_DICE);
    evan.say("#lists", "!accept").await;
    evan.hear("#lists", "Sir Eoin earns a +15 Bonus").await;
    dana.hear("#lists", "Dame Dara (dana), announce a sweep")
        .await;
    dana.say("#lists", "!nosweep").await;
    evan.hear("#lists", "Sir Eoin (evan), announce a sweep")
        .await;
    evan.say("#lists", "!nosweep").await;
    evan.hear("#lists", "Sir Eoin (evan), strike").await;
    evan.say("#lists", "!high").await;
    evan.hear("#lists", "Dame Dara is unhorsed!").await;
    evan.hear("#lists", "Sir Eoin (evan), go on to Swordplay?")
        .await;
    evan.say("#lists", "!decline").await;
    evan.hear("#lists", "Sir Eoin wins (by unhorsing).").await;
    evan.hear("#lists", "Sir Eoin earns 1 HP.").await;
    dana.hear("#lists", "Fight #1 is over.").await;

    assert_eq!(
        ledger(&books.path()).await,
        vec![("Eoin".into(), 2, "practice".into(), "TestNet".into())]
    );
    herald.stop().await;
}

// Private messages: `!help` and `!roll` by private message are answered to the player alone;
// a fight's command by private message says where it belongs. And a reply longer than one IRC
// line arrives whole, in lines that each fit 512 bytes (checked on every line Herald sends).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_answers_and_long_replies() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    // A small burst and a rate, so the replies below wait on the throttle.
    let throttled = format!(
        "{}send_burst = 2\nsend_per_sec = 20.0\n",
        settings(server.port).replace("send_burst = 1000\nsend_per_sec = 1000.0\n", "")
    );
    let herald = Herald::start(&books.path(), &throttled).await;
    let (mut dana, mut evan) = knights(&server).await;

    dana.say("herald", "!help").await;
    dana.hear("dana", "Knights and books:").await;
    dana.hear("dana", "help COMMAND shows how to use one.")
        .await;
    herald.dice(&[77]);
    dana.say("herald", "!roll 100").await;
    assert_eq!(
        dana.hear("dana", "rolls").await,
        "dana rolls 1d100: [77] = 77"
    );
    dana.say("herald", "!joust evan").await;
    assert_eq!(
        dana.hear("dana", "private").await,
        "!joust works in a channel, not by private message."
    );

    // Another bot's command in the channel is left to that bot; by private message, Herald
    // says what it knows.
    dana.say("#lists", "!seen bob").await;
    dana.say("herald", "!seen bob").await;
    dana.hear("dana", "unknown command 'seen'").await;

    // A reply of some 600 bytes: the roll's refusal quotes the whole expression.
    let expr: String = (1..=80).map(|n| format!("w{n:03} ")).collect();
    let expr = expr.trim_end();
    dana.say("#lists", &format!("!roll {expr}")).await;
    let first = evan.hear("#lists", "Cannot roll").await;
    let mut pieces = vec![first];
    while !pieces.last().unwrap().ends_with("4d6kh3") {
        let m = evan
            .wait_for(|m| m.privmsg("herald", "#lists").is_some())
            .await;
        pieces.push(m.privmsg("herald", "#lists").unwrap().to_string());
    }
    assert!(pieces.len() >= 2, "{pieces:?}");
    let whole = pieces.join(" ");
    assert!(
        whole.starts_with(&format!("Cannot roll '{expr}'")),
        "{whole}"
    );
    assert!(whole.len() > 512, "{}", whole.len());

    // Nothing said in private reached the channel.
    assert!(!evan.has_heard("#lists", "Knights and books:"));
    assert!(!evan.has_heard("#lists", "[77]"));
    assert!(!evan.has_heard("#lists", "unknown command"));
    herald.stop().await;
}

// The server goes away in the middle of a fight and comes back: Herald reconnects with its
// backoff, rejoins #lists, tells where the fight stands, and the fight finishes with its award.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fight_survives_the_server_restarting() {
    let Some(mut server) = Ngircd::start(false).await else {
        return;
    };
    let gate = Gate::new(server.port).await;
    let books = Books::new();
    let herald = Herald::start(&books.path(), &settings(gate.port)).await;
    let (mut dana, mut evan) = knights(&server).await;

    dana.say("#lists", "!joust evan").await;
    evan.hear("#lists", "challenges Sir Eoin").await;
    herald.dice(&JOUST_DICE);
    evan.say("#lists", "!accept").await;
    dana.hear("#lists", "Dame Dara (dana), announce a sweep")
        .await;
    dana.say("#lists", "!nosweep").await;
    evan.hear("#lists", "Sir Eoin (evan), announce a sweep")
        .await;

    // Herald is kept out until the players are back, so they hear what it says on return.
    gate.set_open(false);
    server.stop();
    drop((dana, evan));
    server.spawn().await;
    let mut dana = Player::connect(server.port, "dana").await;
    dana.send("JOIN #lists").await;
    dana.wait_for(|m| m.command == "366").await;
    let mut evan = Player::connect(server.port, "evan").await;
    evan.send("JOIN #lists").await;
    evan.wait_for(|m| m.command == "366").await;
    gate.set_open(true);

    evan.wait_for(|m| m.command == "JOIN" && m.from == "herald")
        .await;
    assert_eq!(
        evan.hear("#lists", "Fight #1").await,
        "Fight #1: Dame Dara vs Sir Eoin, Joust, pass 1."
    );
    evan.hear("#lists", "Sir Eoin (evan), announce a sweep")
        .await;

    evan.say("#lists", "!nosweep").await;
    evan.hear("#lists", "Sir Eoin (evan), strike").await;
    evan.say("#lists", "!high").await;
    evan.hear("#lists", "Sir Eoin (evan), go on to Swordplay?")
        .await;
    evan.say("#lists", "!decline").await;
    evan.hear("#lists", "Sir Eoin earns 1 HP.").await;
    dana.hear("#lists", "Fight #1 is over.").await;
    assert_eq!(
        ledger(&books.path()).await,
        vec![("Eoin".into(), 2, "practice".into(), "TestNet".into())]
    );
    herald.stop().await;
}

// The same for a bout of The Tourney: on its return Herald tells where every game's fight
// stands, not PsiKnight's alone, and the bout goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tourney_bout_survives_the_server_restarting() {
    let Some(mut server) = Ngircd::start(false).await else {
        return;
    };
    let gate = Gate::new(server.port).await;
    let books = Books::new();
    let tourney = format!(
        "{}[games.channels]\n\"#lists\" = \"tourney\"\n",
        settings(gate.port)
    );
    let herald = Herald::start(&books.path(), &tourney).await;
    let (mut ann, mut bo) = ann_and_bo(&server).await;
    ann.say("#lists", "!knight create Ector").await;
    ann.hear("#lists", "Sir Ector").await;
    bo.say("#lists", "!knight create Gimby").await;
    ann.hear("#lists", "Sir Gimby").await;
    ann.say("#lists", "!challenge bo").await;
    bo.hear("#lists", "challenges").await;
    herald.dice(&[4, 2]);
    bo.say("#lists", "!accept").await;
    ann.hear("#lists", "Sir Ector (ann), your action").await;

    gate.set_open(false);
    server.stop();
    drop((ann, bo));
    server.spawn().await;
    let mut ann = Player::connect(server.port, "ann").await;
    ann.send("JOIN #lists").await;
    ann.wait_for(|m| m.command == "366").await;
    gate.set_open(true);

    ann.wait_for(|m| m.command == "JOIN" && m.from == "herald")
        .await;
    assert!(
        ann.hear("#lists", "Fight #1").await.starts_with(
            "Fight #1: Sir Ector vs Sir Gimby, a bout on foot of The Tourney. Round 1;"
        ),
        "{}",
        ann.log()
    );
    ann.hear("#lists", "Sir Ector (ann), your action").await;
    herald.dice(&[3, 2]);
    ann.say("#lists", "!attack").await;
    ann.hear("#lists", "Sir Gimby (bo), your action").await;
    herald.stop().await;
}

// Herald itself stops in the middle of a fight and starts again on the same books: it restores
// the fight when it is back on IRC, says so in the channel, and the fight finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fight_survives_herald_restarting() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let herald = Herald::start(&books.path(), &settings(server.port)).await;
    let (mut dana, mut evan) = knights(&server).await;
    dana.say("#lists", "!joust evan").await;
    evan.hear("#lists", "challenges Sir Eoin").await;
    herald.dice(&JOUST_DICE);
    evan.say("#lists", "!accept").await;
    dana.hear("#lists", "Dame Dara (dana), announce a sweep")
        .await;
    dana.say("#lists", "!nosweep").await;
    evan.hear("#lists", "Sir Eoin (evan), announce a sweep")
        .await;

    herald.stop().await;
    evan.wait_for(|m| m.command == "QUIT" && m.from == "herald")
        .await;
    let herald = Herald::start(&books.path(), &settings(server.port)).await;
    evan.wait_for(|m| m.command == "JOIN" && m.from == "herald")
        .await;
    evan.hear("#lists", "Herald is back. Fight #1 resumes where it stood.")
        .await;
    assert_eq!(
        evan.hear("#lists", "Fight #1:").await,
        "Fight #1: Dame Dara vs Sir Eoin, Joust, pass 1."
    );
    evan.hear("#lists", "Sir Eoin (evan), announce a sweep")
        .await;
    // The dice queue lived in the old process: the rest of the pass is queued again
    // (Lance 30 hits, Shield 50 fails).
    herald.dice(&JOUST_DICE[4..]);
    evan.say("#lists", "!nosweep").await;
    evan.say("#lists", "!high").await;
    evan.hear("#lists", "Sir Eoin (evan), go on to Swordplay?")
        .await;
    evan.say("#lists", "!decline").await;
    evan.hear("#lists", "Sir Eoin earns 1 HP.").await;
    assert_eq!(
        ledger(&books.path()).await,
        vec![("Eoin".into(), 2, "practice".into(), "TestNet".into())]
    );
    herald.stop().await;
}

// `tls = true`: Herald speaks TLS (rustls) to the server's TLS port, trusting the server's
// self-signed certificate through tls_ca_file; the players stay on the plain port.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn herald_speaks_tls_when_asked() {
    let Some(server) = Ngircd::start(true).await else {
        return;
    };
    let tls_port = server.tls_port.unwrap();
    let books = Books::new();
    let herald = Herald::start(
        &books.path(),
        &format!(
            "{}tls = true\ntls_ca_file = \"{}\"\n",
            settings(tls_port),
            server.ca().display()
        ),
    )
    .await;
    let mut dana = Player::connect(server.port, "dana").await;
    dana.join_with_herald("#lists").await;
    herald.dice(&[5]);
    dana.say("#lists", "!roll 100").await;
    assert_eq!(
        dana.hear("#lists", "rolls").await,
        "dana rolls 1d100: [5] = 5"
    );
    herald.stop().await;
}

// `herald run --config FILE` with an [irc] section runs the IRC transport (not the console).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn herald_run_starts_the_irc_transport() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let config = books.dir.path().join("herald.toml");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n[irc]\n{}",
            books.path().display(),
            settings(server.port)
        ),
    )
    .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("run")
        .arg("--config")
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("herald runs");
    struct Kill<'a>(&'a mut Child);
    impl Drop for Kill<'_> {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _kill = Kill(&mut child);
    let mut dana = Player::connect(server.port, "dana").await;
    dana.join_with_herald("#lists").await;
    dana.say("#lists", DARA).await;
    dana.hear("#lists", "Dame Dara is dubbed").await;
}

/// Two players, ann and bo, in #lists with Herald.
async fn ann_and_bo(server: &Ngircd) -> (Player, Player) {
    let mut ann = Player::connect(server.port, "ann").await;
    ann.join_with_herald("#lists").await;
    let mut bo = Player::connect(server.port, "bo").await;
    bo.join_with_herald("#lists").await;
    (ann, bo)
}

/// A move: the dice it rolls, whether ann (else bo) says it, the line, and what ann then hears
/// from Herald in #lists. Each move waits for its answer, so no command is made out of turn.
type Move<'a> = (&'a [u32], bool, &'a str, &'a str);

/// Plays `moves` in order.
async fn play(herald: &Herald, ann: &mut Player, bo: &mut Player, moves: &[Move<'_>]) {
    for &(dice, by_ann, line, answer) in moves {
        herald.dice(dice);
        if by_ann {
            ann.say("#lists", line).await;
        } else {
            bo.say("#lists", line).await;
        }
        ann.hear("#lists", answer).await;
    }
}

// The Tourney on IRC with no transport code of its own: the page's worked example (as in
// `tourney.rs`) fought by two IRC clients with `!` commands in a channel whose game is The
// Tourney, from the challenge to the books: T9's roll-off, T3's tie, T2's critical, T4 and T6's
// fumble, T8's fall and stand, T14's offer to yield in the prompt, T15's knight out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tourney_bout_on_irc_is_refereed_to_the_end() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let tourney = format!(
        "{}[games.channels]\n\"#lists\" = \"tourney\"\n",
        settings(server.port)
    );
    let herald = Herald::start(&books.path(), &tourney).await;
    let (mut ann, mut bo) = ann_and_bo(&server).await;
    ann.say("#lists", "!knight create Ector").await;
    ann.hear("#lists", "Sir Ector").await;
    bo.say(
        "#lists",
        "!knight create Gimby --skill broadsword:4,dagger:1 --strength 5",
    )
    .await;
    ann.hear("#lists", "Sir Gimby").await;

    ann.say("#lists", "!challenge bo").await;
    assert_eq!(
        bo.hear("#lists", "challenges").await,
        "Sir Ector challenges Sir Gimby to a bout on foot! bo: !accept or !decline (300s)."
    );
    let ector = "Sir Ector (ann), your action";
    let gimby = "Sir Gimby (bo), your action";
    let moves: &[Move] = &[
        (&[4, 2], false, "!accept", ector),
        (&[3, 2], true, "!attack", gimby),
        (&[5, 3], false, "!attack", ector),
        (&[5, 6], true, "!attack", gimby),
        (&[2, 1, 2], false, "!attack", ector),
        (&[1, 3, 5], true, "!attack", gimby),
        (&[5, 3], false, "!attack", "Sir Ector (ann), at Health 1"),
        (&[2], true, "!stand", gimby),
    ];
    play(&herald, &mut ann, &mut bo, moves).await;
    herald.dice(&[4, 2]);
    bo.say("#lists", "!attack").await;
    let end = ann.hear("#lists", "Sir Gimby wins").await;
    assert_eq!(
        end,
        "Sir Gimby wins: Sir Ector is out of the Tourney until the realm's next day (T15)."
    );
    ann.hear("#lists", "Fight #1 is over. Dice seed: ").await;
    for said in [
        "Roll-off: Sir Ector 4, Sir Gimby 2: Sir Ector acts first (T9).",
        "a tie is parried (T3).",
        "a critical parries (T2).",
        "Sir Ector's fumble die 2: weapon damaged (T6).",
        "Sir Ector's fumble die 5: he falls (T6, T8).",
        "Sir Ector (ann), at Health 1 you may yield (T14); your action: !stand, !yield (120s, then !stand).",
        "Sir Ector tries to stand: 2+3-1 (Health 1) = 4 vs 3: up (T8).",
    ] {
        assert!(ann.has_heard("#lists", said), "not heard: {said}\n{}", ann.log());
    }

    // The books: Gimby's win and Ector's loss, in The Tourney's record.
    ann.say("#lists", "!record").await;
    assert_eq!(
        ann.hear("#lists", "in The Tourney").await,
        "Sir Ector in The Tourney: 0 wins, 1 loss, 0 draws."
    );
    herald.stop().await;
}

// R21 on IRC: `/msg herald !psi SKILL` arms in the channel where the player has a challenge, the
// channel hearing only that a skill is readied; a refusal naming a skill and a `!psi` said in
// the channel are answered by private message; with challenges in two channels the player is
// asked which, and names it. The opponent's client never sees the skill's name. `!fight N` and
// `!fights NAME` by private message are answered to the asker alone (issue 15, item 11).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn psi_is_armed_by_private_message_and_history_is_told_privately() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let two_channels = settings(server.port).replace(
        "channels = [\"#lists\"]",
        "channels = [\"#lists\", \"#yard\"]",
    );
    let herald = Herald::start(&books.path(), &two_channels).await;
    let (mut dana, mut evan) = knights(&server).await;
    // Joined by hand: `join_with_herald` would take #lists' names reply, still unread, for #yard's.
    for player in [&mut dana, &mut evan] {
        player.send("JOIN #yard").await;
        let names = player
            .wait_for(|m| m.command == "353" && m.params.get(2).is_some_and(|c| c == "#yard"))
            .await;
        if !names.params[3]
            .split(' ')
            .any(|n| n.trim_start_matches(['@', '+']) == "herald")
        {
            player
                .wait_for(|m| m.command == "JOIN" && m.from == "herald")
                .await;
        }
    }

    dana.say("#lists", "!joust evan").await;
    evan.hear("#lists", "challenges Sir Eoin").await;
    let from = evan.heard.len();
    dana.say("herald", "!psi apportation").await;
    dana.hear("dana", "Dame Dara arms Apportation.").await;
    assert_eq!(
        evan.hear("#lists", "psi").await,
        "Dame Dara has readied a psi skill."
    );
    dana.say("herald", "!psi telepathy").await;
    assert_eq!(
        dana.hear("dana", "Telepathy").await,
        "Dame Dara has no Telepathy (R21)."
    );
    // Said in the channel, a declaration is still answered privately.
    evan.say("#lists", "!psi negapsi").await;
    evan.hear("evan", "Sir Eoin arms Negapsi.").await;
    dana.hear("#lists", "Sir Eoin has readied a psi skill.")
        .await;

    // A second challenge, in #yard: a private !psi must say which channel it is for.
    dana.say("#yard", "!joust evan").await;
    evan.hear("#yard", "challenges Sir Eoin").await;
    dana.say("herald", "!psi hypercognition").await;
    assert_eq!(
        dana.hear("dana", "say which").await,
        "You have a challenge, a fight or a tournament under way in #lists and #yard: say which, e.g. !psi hypercognition #lists"
    );
    dana.say("herald", "!psi hypercognition #nowhere").await;
    assert_eq!(
        dana.hear("dana", "#nowhere").await,
        "You have no challenge, fight or tournament under way in #nowhere; you have one in #lists and #yard."
    );
    dana.say("herald", "!psi hypercognition #yard").await;
    dana.hear("dana", "Dame Dara arms Hypercognition.").await;
    evan.hear("#yard", "Dame Dara has readied a psi skill.")
        .await;
    dana.say("herald", "!psi off #yard").await;
    dana.hear("dana", "Dame Dara disarms psi.").await;

    // The fight in #yard, nothing armed there: pass 1 unhorses Dara, Eoin declines Swordplay.
    herald.dice(&JOUST_DICE);
    evan.say("#yard", "!accept").await;
    dana.hear("#yard", "Dame Dara (dana), announce a sweep")
        .await;
    dana.say("#yard", "!nosweep").await;
    evan.hear("#yard", "Sir Eoin (evan), announce a sweep")
        .await;
    evan.say("#yard", "!nosweep").await;
    evan.hear("#yard", "Sir Eoin (evan), strike").await;
    evan.say("#yard", "!high").await;
    evan.hear("#yard", "Sir Eoin (evan), go on to Swordplay?")
        .await;
    evan.say("#yard", "!decline").await;
    dana.hear("#yard", "Fight #1 is over.").await;

    dana.say("herald", "!fight 1").await;
    let summary = dana.hear("dana", "Fight #1 (").await;
    assert!(
        summary.starts_with("Fight #1 (PsiKnight practice, #yard): Dara (dana) vs Eoin (evan), "),
        "{summary}"
    );
    dana.hear("dana", "Result: Eoin won").await;
    dana.say("herald", "!fights Eoin").await;
    dana.hear("dana", "Fights of Sir Eoin: 1 fight.").await;
    dana.hear("dana", "#1 ").await;

    // Herald's lines go out in order: once Evan hears this roll, he has heard all before it.
    herald.dice(&[5]);
    dana.say("#lists", "!roll 100").await;
    evan.hear("#lists", "dana rolls 1d100: [5] = 5").await;
    // Evan heard none of it: no skill armed, no refusal, no history.
    for m in &evan.heard[from..] {
        if m.from.eq_ignore_ascii_case("herald") {
            for secret in [
                "Apportation",
                "Telepathy",
                "Hypercognition",
                "disarms",
                "Fight #1 (",
                "Fights of",
            ] {
                assert!(!m.raw.contains(secret), "evan heard {:?}", m.raw);
            }
        }
    }
    herald.stop().await;
}

// Issue 15, item 8: `herald run` tells fights compact on IRC when the configuration says
// nothing of narration: pass 1's rolls and the first prompt come as one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn herald_run_tells_fights_compact_on_irc() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let config = books.dir.path().join("herald.toml");
    std::fs::write(
        &config,
        format!(
            "[database]\npath = \"{}\"\n[irc]\n{}",
            books.path().display(),
            settings(server.port)
        ),
    )
    .unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
        .arg("run")
        .arg("--config")
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("herald runs");
    struct Kill<'a>(&'a mut Child);
    impl Drop for Kill<'_> {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _kill = Kill(&mut child);
    let (mut dana, mut evan) = knights(&server).await;
    dana.say("#lists", "!joust evan").await;
    evan.hear("#lists", "challenges Sir Eoin").await;
    evan.say("#lists", "!accept").await;
    let step = dana.hear("#lists", "Pass 1 — Observe: Dara ").await;
    assert!(
        step.contains(" · Ride: Dara ") && step.contains("), announce a sweep or not"),
        "{step}"
    );
    assert!(step.contains(" ▸ "), "{step}");
}

// Psi Morphs on IRC with no transport code of its own: the page's worked example (as
// `transcripts/psimorphs_example.txt`) fought by two IRC clients in a channel that plays Psi
// Morphs: PM5's order, PM13's ISPs, PM14's redo, PM7's tie, PM18 and PM21's force and
// resistance, PM20's refusal, PM22, PM25's doubled damage and PM8's end. Every prompt names its
// options with IRC's `!`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_psi_morphs_fight_on_irc_is_refereed_to_the_end() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let morphs = format!(
        "{}[games.channels]\n\"#lists\" = \"psimorphs\"\n",
        settings(server.port)
    );
    let herald = Herald::start(&books.path(), &morphs).await;
    let (mut ann, mut bo) = ann_and_bo(&server).await;
    let moves: &[Move] = & [
        (&[], true, "!morph create Ann --str 5 --dex 4 --agi 3 --int 3 --will 3 --res 3 --ranks combat:3,physical:1,energy:3,atom:1 --master combat:1", "Ann is ready for Psi Morphs."),
        (&[], false, "!morph create Bo --str 3 --dex 4 --agi 4 --int 4 --will 3 --res 3 --ranks combat:2,physical:3,mental:1,energy:2 --isp energy:2,general:3", "Bo is ready for Psi Morphs."),
        (&[], true, "!fight bo", "Ann challenges Bo to a fight! bo: !accept or !decline (300s)."),
        (&[], false, "!accept", "Ann (ann), round 1 [--isp N adds ISPs]: !attack, !force eb1,"),
        (&[], true, "!attack bo --isp 5", "Bo (bo), Ann attacks [--isp N adds ISPs]: !defend combat, !defend physical, !yield (120s, then !defend physical)."),
        (&[8, 3, 2, 7, 6], false, "!defend physical", "Bo (bo), 19 vs Ann's 24 goes against you: !redo (3 ISPs), !keep, !yield (120s, then !keep)."),
        (&[10, 6, 2], false, "!redo", "Bo (bo), round 1"),
        (&[5, 4], false, "!force eb1 --isp 2", "Ann (ann), Energy Blast I succeeds, 16 vs 14"),
        (&[3, 2], true, "!resist energy", "Ann (ann), round 2"),
        (&[6, 4], true, "!force as1", "Bo (bo), round 2"),
        (&[], false, "!force eb1", "Bo: PM20: you used Energy Blast I in round 1"),
        (&[], false, "!attack", "Ann (ann), Bo attacks"),
        (&[9, 2, 9, 1, 5], true, "!defend combat", "Ann (ann), round 3"),
        (&[], true, "!attack", "Bo (bo), Ann attacks"),
        (&[10, 9, 7, 2, 6, 3], false, "!defend physical", "Ann wins in round 3: Bo is unconscious (PM8)."),
        (&[], true, "!record", "Ann in Psi Morphs: 1 win, 0 losses, 0 draws."),
        (&[], false, "!sheet", "Bo (bo): level 1"),
    ];
    play(&herald, &mut ann, &mut bo, moves).await;
    for said in [
        "Ann 24 vs Bo 24: a tie between players: no winner (PM7).",
        "Ann hits Bo: strength 7 + 5, doubled at twice the defence = 24 damage; Bo has -4 hp of 20 (PM25).",
        "Fight #1 is over. Dice seed: ",
    ] {
        assert!(ann.has_heard("#lists", said), "not heard: {said}\n{}", ann.log());
    }
    // The books: the fight's end wrote Bo's hp, and his sheet says so.
    assert!(
        ann.has_heard("#lists", "hp -4/20"),
        "Bo's sheet after the fight:\n{}",
        ann.log()
    );
    herald.stop().await;
}

// The PFP duel on IRC with no transport code of its own: the page's worked example (as
// `transcripts/pfpduel_example.txt`) by two IRC clients, options with arguments typed as IRC
// commands (`!dice 0`, `!keep 5 5 maneuver`, `!reroll 6`, `!effect pain 2`): PF4's initiative,
// PF10's Maneuver, PF14's Weakening, PF15's open mind, PF24's ejection and contact, PF33's end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pfp_duel_on_irc_is_refereed_to_the_end() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let duel = format!(
        "{}[games.channels]\n\"#lists\" = \"pfpduel\"\n",
        settings(server.port)
    );
    let herald = Herald::start(&books.path(), &duel).await;
    let (mut ann, mut bo) = ann_and_bo(&server).await;
    let moves: &[Move] = & [
        (&[], true, "!psionist create Ann", "Ann is ready for the PFP duel."),
        (&[], false, "!psionist create Bo", "Bo is ready for the PFP duel."),
        (&[], true, "!challenge bo", "Ann challenges Bo to a psionic duel! bo: !accept or !decline (300s)."),
        (&[5, 6, 3, 3, 2, 5], false, "!accept", "Bo (bo), your activation: 3 AP, 0/2 psionic actions, 6 PFP: !duel, !recover, !move, !end, !yield (120s, then !duel)."),
        (&[], false, "!duel", "Ann (ann), your dice for the duel (defender, 3 AP): !dice 0, !dice 1, !dice 2, !dice 3, !yield (120s, then !dice 0)."),
        (&[6, 2, 2], true, "!dice 0", "Ann (ann), keep two of your dice 6 2 2"),
        (&[], true, "!keep 6 2", "Bo (bo), your dice for the duel"),
        (&[5, 5, 3, 1], false, "!dice 1", "Bo (bo), keep two of your dice 5 5 3 1"),
        (&[], false, "!keep 5 5 maneuver", "Bo (bo), your Maneuver"),
        (&[1], false, "!reroll 6", "Ann (ann), keep again two of your dice 1 2 2"),
        (&[], true, "!keep 2 2 weaken", "Bo (bo), your free mental effect on Ann"),
        (&[], false, "!effect pain 2", "Bo (bo), your activation: 1 AP"),
        (&[], false, "!effect pain 2", "Ann (ann), your activation: 3 AP, 0/2 psionic actions, 0 PFP: !eject, !end, !yield (120s, then !eject)."),
        (&[6, 4, 1, 5, 3, 2, 1, 6], true, "!eject", "Ann (ann), your dice for the ejection"),
        (&[], true, "!dice 2", "Bo (bo), your activation: 3 AP, 0/2 psionic actions, 3 PFP: !contact"),
        (&[], false, "!contact", "Ann (ann), your dice for the contact"),
        (&[5, 2, 1], true, "!dice 1", "Bo (bo), your dice for the contact"),
        (&[6, 4, 3], false, "!dice 0", "Bo (bo), your mental effect on Ann, no AP"),
        (&[], false, "!effect pain 2", "Bo wins: Ann is knocked out (PF33)."),
        (&[], true, "!sheet", "Ann (ann): psionist, power 2; health 0 of 6"),
    ];
    play(&herald, &mut ann, &mut bo, moves).await;
    for said in [
        "Duel: Bo 5+5 + 1 = 11 [maneuver] vs Ann 2+2 + 2 = 6 [weaken]: Bo wins by 5.",
        "Ejection: Ann 6+4 + 2 = 12 vs Bo 5+3 + 1 = 9: Ann wins by 3.",
        "Contact: Bo 6+4 + 1 = 11 vs Ann 5+2 + 2 = 9: Bo wins by 2.",
        "Fight #1 is over. Dice seed: ",
    ] {
        assert!(
            ann.has_heard("#lists", said),
            "not heard: {said}\n{}",
            ann.log()
        );
    }
    herald.stop().await;
}

// Psionic combat with power pools on IRC with no transport code of its own: the page's worked
// example (as `transcripts/powerpool_example.txt`) by two IRC clients: PC7's initiative, PC10,
// PC13 and PC16's stun, PC15's spells, PC18's save, PC21's control and PC31's end, every prompt
// naming its whole command lines with IRC's `!`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_psionic_combat_on_irc_is_refereed_to_the_end() {
    let Some(server) = Ngircd::start(false).await else {
        return;
    };
    let books = Books::new();
    let minds = format!(
        "{}[games.channels]\n\"#lists\" = \"powerpool\"\n",
        settings(server.port)
    );
    let herald = Herald::start(&books.path(), &minds).await;
    let (mut ann, mut bo) = ann_and_bo(&server).await;
    let moves: &[Move] = & [
        (&[], true, "!creature create Ash --kind psionicist --hd 8 --attack stab,overload,subversion --defense mantra,pinnacle,labyrinth", "Ash is ready for Power Pools."),
        (&[], false, "!creature create Brim --kind wild --hd 8 --die d6 --attack overload --defense blank --spells 3,2,1", "Brim is ready for Power Pools."),
        (&[], true, "!psicombat bo", "Ash challenges Brim to a psionic combat! bo: !accept or !decline (300s)."),
        (&[9, 14], false, "!accept", "Brim (bo), your turn: !attack Ash overload, !pass, !yield (120s, then !attack Ash overload)."),
        (&[], false, "!attack Ash overload", "Ash (ann), defend (8 dice in your pool): !defend mantra, !defend labyrinth, !defend pinnacle, !defend none, !yield (120s, then !defend mantra)."),
        (&[5, 3, 6, 2, 7, 1], true, "!defend mantra 2", "Brim (bo), your turn"),
        (&[], false, "!pass", "Ash (ann), your turn: !attack Brim stab"),
        (&[], true, "!attack Brim stab", "Brim (bo), defend (4 dice in your pool): !defend blank, !defend none, !yield (120s, then !defend blank)."),
        (&[15, 3, 11, 7, 2, 9, 5, 12, 4, 6, 5, 2, 3], false, "!defend blank spells 3,2", "Ash wins by control in round 2: Brim has no free creature left (PC31)."),
    ];
    play(&herald, &mut ann, &mut bo, moves).await;
    for said in [
        "Ash is stunned instead of controlled (Barrier Mantra, PC16) and loses its next turn (PC13).",
        "Brim defends with Blank Mind, 4d6, sacrificing spells 3,2 for +5 (PC15).",
        "Ash saves against Blank Mind (PC18): 15 vs 13, success.",
        "Ash wins the exchange, 53 to 21 (PC16).",
    ] {
        assert!(ann.has_heard("#lists", said), "not heard: {said}\n{}", ann.log());
    }
    ann.hear("#lists", "Fight #1 is over. Dice seed: ").await;
    herald.stop().await;
}

/// A real `herald run` with the configuration `toml`, killed (SIGKILL) when dropped.
struct Process(Child);

impl Process {
    fn run(dir: &Path, name: &str, toml: &str) -> Process {
        let config = dir.join(format!("{name}.toml"));
        std::fs::write(&config, toml).unwrap();
        Process(
            std::process::Command::new(env!("CARGO_BIN_EXE_herald"))
                .arg("run")
                .arg("--config")
                .arg(&config)
                .env_remove("HERALD_LOG")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .spawn()
                .expect("herald runs"),
        )
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

// Two networks of one realm, one `herald run` process each, on one database (PostgreSQL when
// HERALD_TEST_PG is set, else a SQLite file): the books are the realm's (a knight made on one
// network is in the other's standings), and killed and started again, each process resumes
// only its own network's fight, in its own #lists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_on_two_networks_of_one_realm_each_resume_their_own_fight() {
    let (Some(net_a), Some(net_b)) = (Ngircd::start(false).await, Ngircd::start(false).await)
    else {
        return;
    };
    let books = Books::new();
    let pg = common::postgres().await;
    let db = pg
        .as_ref()
        .map_or_else(|| books.path().display().to_string(), |pg| pg.url());
    let toml = |network: &str, port: u16| {
        format!(
            "[database]\nurl = \"{db}\"\n[web]\nenabled = false\n\
             [realms.albion]\nirc_networks = [\"neta\", \"netb\"]\n\
             [irc]\n{}network = \"{network}\"\n",
            settings(port)
        )
    };
    let dir = books.dir.path();
    let a = Process::run(dir, "a", &toml("neta", net_a.port));
    let b = Process::run(dir, "b", &toml("netb", net_b.port));

    let (mut dana, mut evan) = knights(&net_a).await;
    let mut fay = Player::connect(net_b.port, "fay").await;
    fay.join_with_herald("#lists").await;
    let mut gil = Player::connect(net_b.port, "gil").await;
    gil.join_with_herald("#lists").await;
    fay.say("#lists", &DARA.replace("Dara", "Fay")).await;
    fay.hear("#lists", "Dame Fay is dubbed").await;
    gil.say("#lists", &EOIN.replace("Eoin", "Gil")).await;
    fay.hear("#lists", "Sir Gil is dubbed").await;
    fay.say("#lists", "!standings").await;
    fay.hear("#lists", "Dara").await;

    dana.say("#lists", "!joust evan").await;
    evan.hear("#lists", "challenges Sir Eoin").await;
    evan.say("#lists", "!accept").await;
    evan.hear("#lists", "announce a sweep").await;
    fay.say("#lists", "!joust gil").await;
    gil.hear("#lists", "challenges Sir Gil").await;
    gil.say("#lists", "!accept").await;
    gil.hear("#lists", "announce a sweep").await;

    drop((a, b));
    let _a = Process::run(dir, "a", &toml("neta", net_a.port));
    evan.hear("#lists", "Herald is back. Fight #1 resumes where it stood.")
        .await;
    evan.hear("#lists", "Fight #1: Dame Dara vs Sir Eoin").await;
    let _b = Process::run(dir, "b", &toml("netb", net_b.port));
    gil.hear("#lists", "Herald is back. Fight #2 resumes where it stood.")
        .await;
    gil.hear("#lists", "Fight #2: Dame Fay vs Sir Gil").await;
    // Each network heard of its own fight only.
    dana.say("#lists", "!roll 100").await;
    dana.hear("#lists", "rolls").await;
    fay.say("#lists", "!roll 100").await;
    fay.hear("#lists", "rolls").await;
    for (p, other) in [(&dana, "#2"), (&evan, "#2"), (&fay, "#1"), (&gil, "#1")] {
        assert!(
            !p.has_heard("#lists", &format!("Fight {other}")),
            "{}:\n{}",
            p.nick,
            p.log()
        );
    }
}
