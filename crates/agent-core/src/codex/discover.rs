//! Where the Codex executable is: the explicit path; then, from each search root upwards through
//! `node_modules` folders (as Node resolves packages), the native binary of `@openai/codex`'s
//! per-platform package (`@openai/codex-<platform>/vendor/<target>/bin/codex`), hoisted or
//! nested under `@openai/codex`; then `codex` on `PATH`. The layout is data ([`package_binary`])
//! so each platform's search is unit-tested on any machine.

use std::path::{Path, PathBuf};

use crate::codex::error::CodexError;

/// `@openai/codex`'s per-platform package name and Rust target for an OS/arch pair as Node names
/// them (`linux`/`darwin`/`win32`, `x64`/`arm64`); `None` where none is published.
pub fn package_binary(os: &str, arch: &str) -> Option<(String, String, &'static str)> {
    let target = match (os, arch) {
        ("linux", "x64") => "x86_64-unknown-linux-musl",
        ("linux", "arm64") => "aarch64-unknown-linux-musl",
        ("darwin", "x64") => "x86_64-apple-darwin",
        ("darwin", "arm64") => "aarch64-apple-darwin",
        ("win32", "x64") => "x86_64-pc-windows-msvc",
        ("win32", "arm64") => "aarch64-pc-windows-msvc",
        _ => return None,
    };
    let exe = if os == "win32" { "codex.exe" } else { "codex" };
    Some((format!("@openai/codex-{os}-{arch}"), target.to_string(), exe))
}

fn host_os_arch() -> (&'static str, &'static str) {
    let os = if cfg!(target_os = "linux") {
        "linux"
    } else if cfg!(target_os = "macos") {
        "darwin"
    } else if cfg!(windows) {
        "win32"
    } else {
        "other"
    };
    let arch = if cfg!(target_arch = "x86_64") {
        "x64"
    } else if cfg!(target_arch = "aarch64") {
        "arm64"
    } else {
        "other"
    };
    (os, arch)
}

/// The binary paths to try under one `node_modules` folder, in order.
pub fn candidates(os: &str, arch: &str, node_modules: &Path) -> Vec<PathBuf> {
    let Some((package, target, exe)) = package_binary(os, arch) else {
        return Vec::new();
    };
    let in_package = |root: PathBuf| root.join("vendor").join(&target).join("bin").join(exe);
    let mut scoped = node_modules.to_path_buf();
    for part in package.split('/') {
        scoped.push(part);
    }
    let mut nested = node_modules.join("@openai").join("codex").join("node_modules");
    for part in package.split('/') {
        nested.push(part);
    }
    vec![in_package(scoped), in_package(nested)]
}

/// Finds the Codex executable (see the module docs); the error lists every place looked at and
/// how to install Codex.
pub fn find_codex(
    explicit: Option<&str>,
    search_from: &[PathBuf],
    path_var: Option<&str>,
) -> Result<PathBuf, CodexError> {
    let (os, arch) = host_os_arch();
    find_codex_in(os, arch, &|p: &Path| p.is_file(), explicit, search_from, path_var)
}

/// [`find_codex`] against a file system given as a predicate (tests).
pub fn find_codex_in(
    os: &str,
    arch: &str,
    exists: &dyn Fn(&Path) -> bool,
    explicit: Option<&str>,
    search_from: &[PathBuf],
    path_var: Option<&str>,
) -> Result<PathBuf, CodexError> {
    if let Some(p) = explicit {
        if p.is_empty() {
            return Err(CodexError::InvalidOption("codexPathOverride must not be empty".into()));
        }
        if !exists(Path::new(p)) {
            return Err(CodexError::NotFound(format!(
                "Codex executable not found at {p} (codexPathOverride)"
            )));
        }
        return Ok(PathBuf::from(p));
    }
    let mut searched = Vec::new();
    for root in search_from {
        for dir in root.ancestors() {
            let nm = if dir.file_name().is_some_and(|n| n == "node_modules") {
                dir.to_path_buf()
            } else {
                dir.join("node_modules")
            };
            for c in candidates(os, arch, &nm) {
                if exists(&c) {
                    return Ok(c);
                }
                searched.push(c);
            }
        }
    }
    let sep = if os == "win32" { ';' } else { ':' };
    let exe = if os == "win32" { "codex.exe" } else { "codex" };
    if let Some(path_var) = path_var {
        for dir in path_var.split(sep).filter(|d| !d.is_empty()) {
            let c = Path::new(dir).join(exe);
            if exists(&c) {
                return Ok(c);
            }
        }
    }
    searched.dedup();
    let package = package_binary(os, arch)
        .map(|(p, _, _)| p)
        .unwrap_or_else(|| format!("(none is published for {os}-{arch})"));
    let mut msg = format!(
    "Codex executable not found. Install it with `npm install @openai/codex` (its per-platform package {package} carries the binary), put `codex` on PATH, or pass codexPathOverride."
  );
    if !searched.is_empty() {
        msg.push_str("\nLooked in:");
        for s in searched.iter().take(24) {
            msg.push_str("\n  ");
            msg.push_str(&s.to_string_lossy());
        }
        if searched.len() > 24 {
            msg.push_str(&format!("\n  ... and {} more", searched.len() - 24));
        }
    }
    msg.push_str(&format!(
        "\n  {exe} on PATH{}",
        if path_var.is_none() { " (PATH is not set)" } else { "" }
    ));
    Err(CodexError::NotFound(msg))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platform_package_is_found_hoisted_or_nested_then_path() {
        let hoisted =
            PathBuf::from("/app/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");
        let nested = PathBuf::from("/app/node_modules/@openai/codex/node_modules/@openai/codex-darwin-arm64/vendor/aarch64-apple-darwin/bin/codex");
        let roots = [PathBuf::from("/app/src/deep")];
        let only = |want: PathBuf| move |p: &Path| p == want;
        assert_eq!(
            find_codex_in("linux", "x64", &only(hoisted.clone()), None, &roots, None).unwrap(),
            hoisted
        );
        assert_eq!(
            find_codex_in("darwin", "arm64", &only(nested.clone()), None, &roots, None).unwrap(),
            nested
        );
        let on_path = PathBuf::from("/usr/local/bin/codex");
        assert_eq!(
            find_codex_in(
                "linux",
                "x64",
                &only(on_path.clone()),
                None,
                &roots,
                Some("/usr/bin:/usr/local/bin")
            )
            .unwrap(),
            on_path
        );
        let win = PathBuf::from("C:\\tools/codex.exe");
        assert_eq!(
            find_codex_in("win32", "x64", &only(win.clone()), None, &[], Some("C:\\tools")).unwrap(),
            win
        );
    }

    #[test]
    fn a_missing_codex_names_where_it_looked_and_how_to_install() {
        let err = find_codex_in(
            "linux",
            "arm64",
            &|_| false,
            None,
            &[PathBuf::from("/app")],
            Some("/bin"),
        )
        .unwrap_err();
        let msg = err.to_string();
        assert_eq!(err.code(), "CODEX_NOT_FOUND");
        assert!(
            msg.contains("npm install @openai/codex") && msg.contains("@openai/codex-linux-arm64"),
            "{msg}"
        );
        assert!(
            msg.contains("/app/node_modules/@openai/codex-linux-arm64/vendor/aarch64-unknown-linux-musl/bin/codex"),
            "{msg}"
        );
        let err = find_codex_in("linux", "x64", &|_| false, Some("/nope/codex"), &[], None).unwrap_err();
        assert!(err.to_string().contains("/nope/codex"));
    }
}
