use std::path::{Path, PathBuf};

use crate::error::Error;

/// Where the CLI was found, and whether it is a JavaScript entry point that needs a runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executable {
  pub path: PathBuf,
  pub is_script: bool,
}

/// The official SDK runs these through `node`/`bun` instead of executing them.
pub fn is_script(path: &Path) -> bool {
  let s = path.to_string_lossy();
  [".js", ".mjs", ".tsx", ".ts", ".jsx"].iter().any(|ext| s.ends_with(ext))
}

/// Finds the Claude Code executable, in order: the explicit path, the native binary shipped by
/// the npm package `@anthropic-ai/claude-code` (searched from `search_from` upwards through
/// `node_modules` folders, as Node resolves packages), then `claude` on `PATH`.
pub fn find_cli(explicit: Option<&str>, search_from: &[PathBuf], path_var: Option<&str>) -> Result<Executable, Error> {
  if let Some(p) = explicit {
    let path = PathBuf::from(p);
    if !path.exists() {
      return Err(Error::CliNotFound(format!(
        "Claude Code executable not found at {p}. Is options.pathToClaudeCodeExecutable set to the right file?"
      )));
    }
    // Relative to the host's cwd, not the child's (`options.cwd` may differ).
    let path = std::path::absolute(&path).unwrap_or(path);
    return Ok(Executable { is_script: is_script(&path), path });
  }
  for start in search_from {
    for dir in start.ancestors() {
      if let Some(found) = package_binary(&dir.join("node_modules")) {
        return Ok(Executable { path: found, is_script: false });
      }
    }
  }
  if let Some(found) = path_var.and_then(|p| on_path("claude", p)) {
    return Ok(Executable { path: found, is_script: false });
  }
  Err(Error::CliNotFound(
    "Claude Code executable not found. Install it with `npm install @anthropic-ai/claude-code` \
     (this package depends on it, so reinstalling claude-agent-sdk-native also works), put `claude` \
     on PATH, or pass options.pathToClaudeCodeExecutable."
      .to_string(),
  ))
}

/// The npm package ships the native binary as `bin/claude.exe` (its postinstall, which npm 11
/// does not run unless approved, only replaces it), and the platform package carries the same
/// binary as `claude`.
fn package_binary(node_modules: &Path) -> Option<PathBuf> {
  let scope = node_modules.join("@anthropic-ai");
  let candidates = [
    scope.join("claude-code").join("bin").join("claude.exe"),
    scope.join(format!("claude-code-{}", platform_suffix())).join("claude"),
  ];
  candidates.into_iter().find(|p| is_native_binary(p))
}

fn platform_suffix() -> &'static str {
  match (std::env::consts::OS, std::env::consts::ARCH) {
    ("linux", "aarch64") => "linux-arm64",
    ("macos", "aarch64") => "darwin-arm64",
    ("macos", _) => "darwin-x64",
    _ => "linux-x64",
  }
}

/// A placeholder script (a package whose postinstall copied nothing) must not be mistaken for
/// the binary: require the ELF / Mach-O magic.
fn is_native_binary(p: &Path) -> bool {
  use std::io::Read;
  let Ok(mut f) = std::fs::File::open(p) else { return false };
  let mut magic = [0u8; 4];
  if f.read_exact(&mut magic).is_err() {
    return false;
  }
  magic == [0x7f, b'E', b'L', b'F'] || magic == [0xcf, 0xfa, 0xed, 0xfe] || magic == [0xca, 0xfe, 0xba, 0xbe]
}

fn on_path(name: &str, path_var: &str) -> Option<PathBuf> {
  use std::os::unix::fs::PermissionsExt;
  std::env::split_paths(path_var).map(|d| d.join(name)).find(|p| {
    std::fs::metadata(p).map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
  })
}

#[cfg(test)]
mod tests {
  use super::*;
  use std::os::unix::fs::PermissionsExt;

  fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("agent-core-discover-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
  }

  #[test]
  fn explicit_path_wins_and_missing_one_is_named() {
    let d = tmpdir("explicit");
    let script = d.join("cli.mjs");
    std::fs::write(&script, "").unwrap();
    let found = find_cli(Some(script.to_str().unwrap()), &[], None).unwrap();
    assert!(found.is_script);
    let err = find_cli(Some("/no/such/claude"), &[], None).unwrap_err();
    assert!(err.to_string().contains("/no/such/claude"), "{err}");
  }

  #[test]
  fn finds_package_binary_walking_up_then_path_then_explains() {
    let d = tmpdir("walk");
    let bin = d.join("node_modules/@anthropic-ai/claude-code/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("claude.exe"), b"#!/bin/sh\n").unwrap(); // a placeholder, not the binary
    let deep = d.join("a/b/c");
    std::fs::create_dir_all(&deep).unwrap();
    let none = find_cli(None, &[deep.clone()], Some("")).unwrap_err();
    assert!(none.to_string().contains("npm install @anthropic-ai/claude-code"), "{none}");
    std::fs::write(bin.join("claude.exe"), b"\x7fELF....").unwrap();
    assert_eq!(find_cli(None, &[deep.clone()], None).unwrap().path, bin.join("claude.exe"));

    let pathdir = tmpdir("path");
    let claude = pathdir.join("claude");
    std::fs::write(&claude, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&claude, std::fs::Permissions::from_mode(0o755)).unwrap();
    let elsewhere = tmpdir("elsewhere");
    let found = find_cli(None, &[elsewhere], Some(pathdir.to_str().unwrap())).unwrap();
    assert_eq!(found.path, claude);
  }
}
