# Herald in a container.
#
#   docker build -t herald .
#   docker run -d --name herald \
#     -v herald-data:/data \
#     -v "$PWD/herald.toml:/config/herald.toml:ro" \
#     -e DISCORD_TOKEN \
#     herald
#
# The books live on the volume /data (the working directory, so the default `herald.db` and any
# relative `[database] path` land there); the configuration is a mounted file; the Discord token
# comes from the environment variable named by `[discord] token_env` (DISCORD_TOKEN by default).
# The build runs the same command as the README and CI: `cargo build --release --locked`.

# The toolchain CI tests with; the workspace's rust-version is the oldest that builds.
ARG RUST_VERSION=1.95

FROM rust:${RUST_VERSION}-slim-bookworm AS build
WORKDIR /src

# Dependencies first, in their own layer: the manifests and the lock file with stub sources
# (and a stub for every bench a manifest names, which cargo requires to exist), so that editing
# Herald's code does not rebuild sqlx, tokio and the rest.
COPY Cargo.toml Cargo.lock ./
COPY engine/Cargo.toml engine/
COPY bot/Cargo.toml bot/
RUN set -eu; \
    for crate in engine bot; do \
      mkdir -p "$crate/src" "$crate/benches"; \
      for bench in $(sed -n '/^\[\[bench\]\]/,/^$/s/^name *= *"\(.*\)"/\1/p' "$crate/Cargo.toml"); do \
        echo 'fn main() {}' > "$crate/benches/$bench.rs"; \
      done; \
    done; \
    touch engine/src/lib.rs bot/src/lib.rs; \
    echo 'fn main() {}' > bot/src/main.rs; \
    cargo build --release --locked -p herald-bot; \
    cargo clean --release -p herald-bot -p herald-engine; \
    rm -rf engine bot

# Herald itself. The migrations are read at compile time: `sqlx::migrate!` embeds them in the
# binary (bot/src/store/mod.rs), which applies them on start-up; so is docs/rulings.md, which
# `/rules R26` quotes (bot/src/rules.rs).
COPY engine engine
COPY bot bot
COPY docs docs
COPY migrations migrations
COPY config.example.toml ./
RUN cargo build --release --locked -p herald-bot \
 && install -D -m 0755 target/release/herald /out/herald

# The runtime: the binary and CA certificates (for Discord's HTTPS and IRC over TLS). No
# migrations folder: they are inside the binary.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin herald \
 && mkdir -p /data /config \
 && chown herald:herald /data
COPY --from=build /out/herald /usr/local/bin/herald
COPY config.example.toml /usr/share/doc/herald/config.example.toml

USER herald
WORKDIR /data
VOLUME ["/data"]
# The realm's web pages ([web] bind = "0.0.0.0:8080" inside the container).
EXPOSE 8080
ENV HERALD_LOG=info
ENTRYPOINT ["herald"]
CMD ["run", "--config", "/config/herald.toml"]
