//! Rebuilds the bot when a migration is added: `sqlx::migrate!` embeds the migrations' folders,
//! and cargo watches a folder for new files only when told to.
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    println!("cargo:rerun-if-changed=../migrations/postgres");
}
