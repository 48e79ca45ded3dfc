//! The rustc wrapper that gives optimized builds the committed profile (`tools/rustc-pgo`, set in
//! `.cargo/config.toml`), run with a stand-in compiler that prints what it was given.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

/// A stand-in for rustc that reports `llvm` as its LLVM version and otherwise prints its arguments,
/// one per line.
fn fake_rustc(dir: &Path, llvm: &str) -> PathBuf {
    let path = dir.join(format!("rustc-llvm-{llvm}"));
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = -vV ]; then echo 'rustc 1.0.0'; echo 'LLVM version: {llvm}.1.2'; exit 0; fi\n\
         for a in \"$@\"; do echo \"$a\"; done\n"
    );
    std::fs::write(&path, script).expect("write the stand-in");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("make the stand-in executable");
    path
}

/// The arguments the wrapper handed to `rustc` for `args`.
fn passed(rustc: &Path, args: &[&str]) -> Vec<String> {
    let out =
        Command::new(workspace().join("tools/rustc-pgo")).arg(rustc).args(args).output().expect("the wrapper runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("text").lines().map(str::to_string).collect()
}

#[test]
fn optimized_builds_get_the_committed_profile_when_the_compilers_llvm_wrote_it() {
    let root = workspace();
    let profile = root.join("pgo/chapterhouse.profdata");
    assert!(profile.is_file(), "the profile is committed");
    let major = std::fs::read_to_string(root.join("pgo/llvm-major")).expect("pgo/llvm-major");
    let major = major.trim();
    assert!(!major.is_empty() && major.bytes().all(|b| b.is_ascii_digit()), "a major version: {major:?}");

    let dir = tempfile::tempdir().expect("temp dir");
    let matching = fake_rustc(dir.path(), major);
    let release = ["--crate-name", "x", "-C", "opt-level=3", "src/lib.rs"];
    let mut expected: Vec<String> = release.iter().map(|a| a.to_string()).collect();
    expected.push(format!("-Cprofile-use={}", profile.display()));
    assert_eq!(passed(&matching, &release), expected, "release: the profile is added, by its absolute path");

    let debug = ["--crate-name", "x", "-C", "opt-level=0", "src/lib.rs"];
    assert_eq!(passed(&matching, &debug), debug, "a debug build is compiled as asked");
    let instrumented = ["-C", "opt-level=3", "-Cprofile-generate=/somewhere", "src/lib.rs"];
    assert_eq!(passed(&matching, &instrumented), instrumented, "an instrumented build gets no profile");
    let queries = ["-vV"];
    assert!(passed(&matching, &queries).iter().any(|l| l.starts_with("LLVM version: ")), "queries pass through");

    let other = fake_rustc(dir.path(), "1");
    assert_eq!(passed(&other, &release), release, "another LLVM's compiler is not given this profile");
}
