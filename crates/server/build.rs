//! Rebuilds the server when a migration is added: `sqlx::migrate!` embeds the files it finds at
//! build time and, on its own, notices only changes to those it already embedded.
fn main() {
    println!("cargo:rerun-if-changed=../../migrations");
}
