//! Where the Claude Code executable is. Every layout the official packages ship is described as
//! data ([`Platform`], [`candidates`]) so that each platform's search is unit-tested on any
//! machine, against a file system given as data ([`Files`]).
//!
//! Order: the explicit path; then, from each search root upwards through `node_modules`
//! folders (as Node resolves packages): the `@anthropic-ai/claude-code` package this package
//! depends on (`bin/claude.exe`), its per-platform package, and the official Agent SDK's own
//! per-platform binary package; then `claude` on `PATH` (with `PATHEXT` on Windows).
//!
//! Linux packages come as glibc and musl builds. The one matching the host's C library comes
//! first; the other is used only when its dynamic loader is present (the official SDK's issue
//! #296: a musl binary picked on a glibc system fails to start with a bare ENOENT).
//! Inside an Electron app, files in `app.asar` cannot be executed: the unpacked copy
//! (`app.asar.unpacked`, where electron-builder puts binaries) is used instead.

use std::path::{Component, Path, PathBuf};

use crate::error::Error;

/// How the messages name the option that gives the CLI's path (the TypeScript SDK's name; the
/// Rust SDK puts its own in their place).
pub const PATH_OPTION: &str = "options.pathToClaudeCodeExecutable";

/// Where the CLI was found, and whether it is a JavaScript entry point that needs a runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Executable {
    pub path: PathBuf,
    pub is_script: bool,
}

/// The official SDK runs these through `node`/`bun` instead of executing them.
pub(crate) fn is_script(path: &Path) -> bool {
    let s = path.to_string_lossy();
    [".js", ".mjs", ".tsx", ".ts", ".jsx"]
        .iter()
        .any(|ext| s.ends_with(ext))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)] // `MacOs` is the platform's name
pub(crate) enum Os {
    Linux,
    MacOs,
    Windows,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Libc {
    Glibc,
    Musl,
}

/// The platform a CLI binary must fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Platform {
    pub os: Os,
    /// npm's name: `x64` or `arm64`.
    pub arch: &'static str,
    /// Linux only: the host's C library.
    pub libc: Option<Libc>,
}

impl Platform {
    /// The machine we run on. The C library is our own build's: a musl build of this engine is
    /// only ever loaded by a musl runtime, a glibc build by a glibc one.
    pub fn current() -> Platform {
        let os = if cfg!(windows) {
            Os::Windows
        } else if cfg!(target_os = "macos") {
            Os::MacOs
        } else {
            Os::Linux
        };
        let arch = if cfg!(target_arch = "aarch64") { "arm64" } else { "x64" };
        let libc = match os {
            Os::Linux if cfg!(target_env = "musl") => Some(Libc::Musl),
            Os::Linux => Some(Libc::Glibc),
            _ => None,
        };
        Platform { os, arch, libc }
    }

    /// npm's platform name: `linux-x64`, `darwin-arm64`, `win32-x64`.
    pub(crate) fn npm_name(&self) -> String {
        let os = match self.os {
            Os::Linux => "linux",
            Os::MacOs => "darwin",
            Os::Windows => "win32",
        };
        format!("{os}-{}", self.arch)
    }

    fn exe_name(&self, stem: &str) -> String {
        if self.os == Os::Windows {
            format!("{stem}.exe")
        } else {
            stem.to_string()
        }
    }

    /// The dynamic loader a Linux binary built for `libc` needs on this architecture.
    fn loader(&self, libc: Libc) -> Option<&'static str> {
        match (self.os, libc, self.arch) {
            (Os::Linux, Libc::Glibc, "arm64") => Some("/lib/ld-linux-aarch64.so.1"),
            (Os::Linux, Libc::Glibc, _) => Some("/lib64/ld-linux-x86-64.so.2"),
            (Os::Linux, Libc::Musl, "arm64") => Some("/lib/ld-musl-aarch64.so.1"),
            (Os::Linux, Libc::Musl, _) => Some("/lib/ld-musl-x86_64.so.1"),
            _ => None,
        }
    }
}

/// What discovery needs to know of the file system (the real one, or one given as data).
pub(crate) trait Files {
    /// A regular file that starts with an executable's magic number (ELF, Mach-O, PE).
    fn native_binary(&self, path: &Path) -> bool;
    /// A regular file that may be executed (unix: an execute bit; Windows: any file).
    fn executable(&self, path: &Path) -> bool;
    fn exists(&self, path: &Path) -> bool;
}

/// The real file system.
pub(crate) struct RealFiles;

impl Files for RealFiles {
    fn native_binary(&self, p: &Path) -> bool {
        use std::io::Read;
        let Ok(mut f) = std::fs::File::open(p) else {
            return false;
        };
        let mut magic = [0u8; 4];
        if f.read_exact(&mut magic).is_err() {
            return false;
        }
        is_native_magic(&magic)
    }

    fn executable(&self, p: &Path) -> bool {
        let Ok(m) = std::fs::metadata(p) else { return false };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            m.is_file() && m.permissions().mode() & 0o111 != 0
        }
        #[cfg(not(unix))]
        {
            m.is_file()
        }
    }

    fn exists(&self, p: &Path) -> bool {
        p.exists()
    }
}

/// A placeholder script (a package whose postinstall copied nothing) must not be mistaken for
/// the binary: ELF, Mach-O (64-bit, fat) or a Windows PE (`MZ`).
pub(crate) fn is_native_magic(magic: &[u8; 4]) -> bool {
    magic == &[0x7f, b'E', b'L', b'F']
        || magic == &[0xcf, 0xfa, 0xed, 0xfe]
        || magic == &[0xca, 0xfe, 0xba, 0xbe]
        || magic[..2] == *b"MZ"
}

/// The binaries a `node_modules` folder may hold for `platform`, best first, each with the C
/// library it was built for (None: any / not Linux).
pub(crate) fn candidates(platform: &Platform, node_modules: &Path) -> Vec<(PathBuf, Option<Libc>)> {
    let scope = node_modules.join("@anthropic-ai");
    let exe = platform.exe_name("claude");
    let plat = platform.npm_name();
    // Linux packages: the host's libc first, then the other (kept only if it can load).
    let flavours: Vec<(String, Option<Libc>)> = match platform.libc {
        None => vec![(plat.clone(), None)],
        Some(Libc::Glibc) => vec![
            (plat.clone(), Some(Libc::Glibc)),
            (format!("{plat}-musl"), Some(Libc::Musl)),
        ],
        Some(Libc::Musl) => vec![
            (format!("{plat}-musl"), Some(Libc::Musl)),
            (plat.clone(), Some(Libc::Glibc)),
        ],
    };
    // `@anthropic-ai/claude-code`'s `bin/claude.exe` is its platform package's binary, copied
    // there by its postinstall for this machine (whatever the OS, the name ends in .exe).
    let mut out = vec![(scope.join("claude-code").join("bin").join("claude.exe"), None)];
    for package in ["claude-code", "claude-agent-sdk"] {
        for (suffix, libc) in &flavours {
            out.push((scope.join(format!("{package}-{suffix}")).join(&exe), *libc));
        }
    }
    out
}

/// The directories and names searched, for the error when nothing is found.
struct Searched(Vec<String>);

/// Finds the Claude Code executable for this machine (see the module's documentation).
pub fn find_cli(explicit: Option<&str>, search_from: &[PathBuf], path_var: Option<&str>) -> Result<Executable, Error> {
    let pathext = std::env::var("PATHEXT").ok();
    find_cli_in(
        &Platform::current(),
        &RealFiles,
        explicit,
        search_from,
        path_var,
        pathext.as_deref(),
    )
}

/// [`find_cli`] for a given platform and file system.
pub(crate) fn find_cli_in(
    platform: &Platform,
    files: &dyn Files,
    explicit: Option<&str>,
    search_from: &[PathBuf],
    path_var: Option<&str>,
    pathext: Option<&str>,
) -> Result<Executable, Error> {
    if let Some(p) = explicit {
        return explicit_path(files, p);
    }
    let mut searched = Searched(Vec::new());
    for start in search_from {
        for dir in start.ancestors() {
            let node_modules = dir.join("node_modules");
            if !files.exists(&node_modules) && unpacked(&node_modules).is_none_or(|u| !files.exists(&u)) {
                continue;
            }
            searched.0.push(node_modules.display().to_string());
            for (path, libc) in candidates(platform, &node_modules) {
                let loadable = match (libc, platform.libc) {
                    (Some(wanted), Some(host)) if wanted != host => {
                        platform.loader(wanted).is_some_and(|l| files.exists(Path::new(l)))
                    }
                    _ => true,
                };
                for p in unpacked(&path).into_iter().chain([path]) {
                    if loadable && files.native_binary(&p) {
                        return Ok(Executable {
                            path: p,
                            is_script: false,
                        });
                    }
                }
            }
        }
    }
    if let Some(found) = path_var.and_then(|p| on_path(platform, files, p, pathext)) {
        return Ok(Executable {
            is_script: is_script(&found),
            path: found,
        });
    }
    Err(not_found(platform, &searched, path_var.is_some()))
}

fn not_found(platform: &Platform, searched: &Searched, had_path: bool) -> Error {
    let mut packages: Vec<String> = vec!["@anthropic-ai/claude-code".into()];
    let plat = platform.npm_name();
    match platform.libc {
        Some(Libc::Musl) => packages.push(format!("@anthropic-ai/claude-code-{plat}-musl")),
        _ => packages.push(format!("@anthropic-ai/claude-code-{plat}")),
    }
    let looked = if searched.0.is_empty() {
        "no node_modules folder above the search roots".to_string()
    } else {
        searched.0.join(", ")
    };
    let libc = match platform.libc {
        Some(Libc::Musl) => " (musl)",
        Some(Libc::Glibc) => " (glibc)",
        None => "",
    };
    Error::CliNotFound(format!(
        "Claude Code executable not found for {plat}{libc}. Searched: {packages} in {looked}{path}. \
     Install it with `npm install @anthropic-ai/claude-code` (this package depends on it, so reinstalling \
     claude-agent-sdk-native without --omit=optional also works), put `{exe}` on PATH, or pass \
     {PATH_OPTION}.",
        packages = packages.join(" and "),
        path = if had_path {
            format!("; `{}` on PATH", platform.exe_name("claude"))
        } else {
            String::new()
        },
        exe = platform.exe_name("claude"),
    ))
}

/// `pathToClaudeCodeExecutable`: must exist. Inside an Electron `app.asar` the unpacked copy is
/// taken; a path inside a Bun single-file executable's virtual file system cannot be spawned.
fn explicit_path(files: &dyn Files, p: &str) -> Result<Executable, Error> {
    if p.contains("/$bunfs/") || p.contains("~BUN\\") {
        return Err(Error::CliNotFound(format!(
            "Claude Code executable {p} is inside a Bun single-file executable, which other processes cannot read. \
       Pass it through extractFromBunfs() from 'claude-agent-sdk-native/extract' first."
        )));
    }
    let path = PathBuf::from(p);
    let path = match unpacked(&path) {
        Some(u) if files.exists(&u) => u,
        _ => path,
    };
    if !files.exists(&path) {
        let hint = if unpacked(&path).is_some() {
            " It is inside an Electron app.asar archive, which cannot hold executables: unpack it (electron-builder's `asarUnpack`) so that it is under app.asar.unpacked."
        } else {
            ""
        };
        return Err(Error::CliNotFound(format!(
            "Claude Code executable not found at {p}. Is {PATH_OPTION} set to the right file?{hint}"
        )));
    }
    // Relative to the host's cwd, not the child's (`options.cwd` may differ).
    let path = std::path::absolute(&path).unwrap_or(path);
    Ok(Executable {
        is_script: is_script(&path),
        path,
    })
}

/// The same path with its `app.asar` component replaced by `app.asar.unpacked`, if it has one.
pub(crate) fn unpacked(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    let mut found = false;
    for c in path.components() {
        match c {
            Component::Normal(name) if !found && name == "app.asar" => {
                out.push("app.asar.unpacked");
                found = true;
            }
            other => out.push(other),
        }
    }
    found.then_some(out)
}

/// `claude` on PATH. Windows: each `PATHEXT` extension in turn (`.COM;.EXE;.BAT;.CMD` when
/// unset), PATH split on `;`; elsewhere PATH split on `:` and an execute bit required.
fn on_path(platform: &Platform, files: &dyn Files, path_var: &str, pathext: Option<&str>) -> Option<PathBuf> {
    let (sep, names): (char, Vec<String>) = if platform.os == Os::Windows {
        let exts = pathext.filter(|e| !e.is_empty()).unwrap_or(".COM;.EXE;.BAT;.CMD");
        (
            ';',
            exts.split(';')
                .filter(|e| !e.is_empty())
                .map(|e| format!("claude{}", e.to_ascii_lowercase()))
                .collect(),
        )
    } else {
        (':', vec!["claude".to_string()])
    };
    path_var
        .split(sep)
        .map(|d| d.trim_matches('"'))
        .filter(|d| !d.is_empty())
        .flat_map(|d| names.iter().map(move |n| Path::new(d).join(n)))
        .find(|p| files.executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A file system as data: path → "bin" (a native binary), "script" (an executable text file),
    /// "file" (anything else, not executable).
    struct Fake(HashMap<PathBuf, &'static str>);

    impl Fake {
        fn new(entries: &[(&str, &'static str)]) -> Fake {
            Fake(entries.iter().map(|(p, k)| (PathBuf::from(p), *k)).collect())
        }
    }

    impl Files for Fake {
        fn native_binary(&self, p: &Path) -> bool {
            self.0.get(p) == Some(&"bin")
        }
        fn executable(&self, p: &Path) -> bool {
            matches!(self.0.get(p), Some(&"bin" | &"script"))
        }
        fn exists(&self, p: &Path) -> bool {
            self.0.contains_key(p) || self.0.keys().any(|k| k.starts_with(p))
        }
    }

    const fn platform(os: Os, arch: &'static str, libc: Option<Libc>) -> Platform {
        Platform { os, arch, libc }
    }
    const LINUX_X64: Platform = platform(Os::Linux, "x64", Some(Libc::Glibc));
    const LINUX_ARM64: Platform = platform(Os::Linux, "arm64", Some(Libc::Glibc));
    const ALPINE_X64: Platform = platform(Os::Linux, "x64", Some(Libc::Musl));
    const ALPINE_ARM64: Platform = platform(Os::Linux, "arm64", Some(Libc::Musl));
    const MAC_ARM64: Platform = platform(Os::MacOs, "arm64", None);
    const MAC_X64: Platform = platform(Os::MacOs, "x64", None);
    const WIN_X64: Platform = platform(Os::Windows, "x64", None);
    const WIN_ARM64: Platform = platform(Os::Windows, "arm64", None);

    fn find(platform: &Platform, fs: &Fake) -> Result<PathBuf, String> {
        find_cli_in(platform, fs, None, &[PathBuf::from("/app/src")], None, None)
            .map(|e| e.path)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn every_official_platform_package_is_found_on_its_platform() {
        let cases: &[(Platform, &str)] = &[
            (
                LINUX_X64,
                "/app/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
            ),
            (
                LINUX_ARM64,
                "/app/node_modules/@anthropic-ai/claude-code-linux-arm64/claude",
            ),
            (
                ALPINE_X64,
                "/app/node_modules/@anthropic-ai/claude-code-linux-x64-musl/claude",
            ),
            (
                ALPINE_ARM64,
                "/app/node_modules/@anthropic-ai/claude-code-linux-arm64-musl/claude",
            ),
            (MAC_X64, "/app/node_modules/@anthropic-ai/claude-code-darwin-x64/claude"),
            (
                MAC_ARM64,
                "/app/node_modules/@anthropic-ai/claude-code-darwin-arm64/claude",
            ),
            (
                WIN_X64,
                "/app/node_modules/@anthropic-ai/claude-code-win32-x64/claude.exe",
            ),
            (
                WIN_ARM64,
                "/app/node_modules/@anthropic-ai/claude-code-win32-arm64/claude.exe",
            ),
            // The official Agent SDK's own bundled binaries.
            (
                LINUX_X64,
                "/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude",
            ),
            (
                ALPINE_ARM64,
                "/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-arm64-musl/claude",
            ),
            (
                MAC_ARM64,
                "/app/node_modules/@anthropic-ai/claude-agent-sdk-darwin-arm64/claude",
            ),
            (
                WIN_X64,
                "/app/node_modules/@anthropic-ai/claude-agent-sdk-win32-x64/claude.exe",
            ),
            // The main package's bin, filled in by its postinstall (any OS).
            (MAC_X64, "/app/node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
            (WIN_ARM64, "/app/node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
        ];
        for (platform, path) in cases {
            assert_eq!(
                find(platform, &Fake::new(&[(path, "bin")])).as_deref(),
                Ok(Path::new(path)),
                "{platform:?}"
            );
        }
        // Another platform's package is never taken.
        let other = Fake::new(&[("/app/node_modules/@anthropic-ai/claude-code-darwin-arm64/claude", "bin")]);
        for p in [LINUX_X64, ALPINE_X64, MAC_X64, WIN_ARM64] {
            assert!(find(&p, &other).is_err(), "{p:?}");
        }
    }

    #[test]
    fn the_hosts_libc_comes_first_and_the_other_only_when_its_loader_exists() {
        let both = [
            (
                "/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64-musl/claude",
                "bin",
            ),
            (
                "/app/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude",
                "bin",
            ),
        ];
        assert_eq!(find(&LINUX_X64, &Fake::new(&both)).unwrap(), Path::new(both[1].0));
        assert_eq!(find(&ALPINE_X64, &Fake::new(&both)).unwrap(), Path::new(both[0].0));
        // TS#296: only the musl package on a glibc host without the musl loader → not taken.
        let musl_only = [both[0]];
        let err = find(&LINUX_X64, &Fake::new(&musl_only)).unwrap_err();
        assert!(err.contains("linux-x64 (glibc)"), "{err}");
        let with_loader = [both[0], ("/lib/ld-musl-x86_64.so.1", "file")];
        assert_eq!(
            find(&LINUX_X64, &Fake::new(&with_loader)).unwrap(),
            Path::new(both[0].0)
        );
        // And a glibc binary on Alpine needs glibc's loader (gcompat).
        let glibc_only = [("/app/node_modules/@anthropic-ai/claude-code-linux-arm64/claude", "bin")];
        assert!(find(&ALPINE_ARM64, &Fake::new(&glibc_only)).is_err());
        let gcompat = [glibc_only[0], ("/lib/ld-linux-aarch64.so.1", "file")];
        assert!(find(&ALPINE_ARM64, &Fake::new(&gcompat)).is_ok());
    }

    #[test]
    fn placeholders_are_skipped_and_the_search_walks_up() {
        let fs = Fake::new(&[
            (
                "/app/src/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
                "script",
            ), // postinstall never ran
            ("/node_modules/@anthropic-ai/claude-code-linux-x64/claude", "bin"),
        ]);
        assert_eq!(
            find(&LINUX_X64, &fs).unwrap(),
            Path::new("/node_modules/@anthropic-ai/claude-code-linux-x64/claude")
        );
    }

    #[test]
    fn electron_asar_uses_the_unpacked_copy() {
        let fs = Fake::new(&[(
            "/opt/App/resources/app.asar.unpacked/node_modules/@anthropic-ai/claude-code/bin/claude.exe",
            "bin",
        )]);
        let found = find_cli_in(
            &MAC_ARM64,
            &fs,
            None,
            &[PathBuf::from(
                "/opt/App/resources/app.asar/node_modules/claude-agent-sdk-native",
            )],
            None,
            None,
        );
        assert_eq!(
            found.unwrap().path,
            Path::new("/opt/App/resources/app.asar.unpacked/node_modules/@anthropic-ai/claude-code/bin/claude.exe")
        );
        let explicit = find_cli_in(
            &MAC_ARM64,
            &fs,
            Some("/opt/App/resources/app.asar/node_modules/@anthropic-ai/claude-code/bin/claude.exe"),
            &[],
            None,
            None,
        );
        assert_eq!(
            explicit.unwrap().path,
            Path::new("/opt/App/resources/app.asar.unpacked/node_modules/@anthropic-ai/claude-code/bin/claude.exe")
        );
        let missing = find_cli_in(&MAC_ARM64, &Fake::new(&[]), Some("/x/app.asar/claude"), &[], None, None)
            .unwrap_err()
            .to_string();
        assert!(missing.contains("asarUnpack"), "{missing}");
        assert_eq!(unpacked(Path::new("/a/app.asar.unpacked/b")), None);
    }

    #[test]
    fn bunfs_paths_point_to_extract_from_bunfs() {
        let err = find_cli_in(
            &LINUX_X64,
            &Fake::new(&[]),
            Some("/$bunfs/root/claude"),
            &[],
            None,
            None,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("extractFromBunfs") && err.contains("claude-agent-sdk-native/extract"),
            "{err}"
        );
    }

    #[test]
    fn path_search_per_platform() {
        let unix = Fake::new(&[("/usr/bin/claude", "file"), ("/opt/bin/claude", "script")]);
        let found = find_cli_in(&MAC_X64, &unix, None, &[], Some("/usr/bin:/opt/bin"), None).unwrap();
        assert_eq!(
            found.path,
            Path::new("/opt/bin/claude"),
            "a file without an execute bit is skipped"
        );
        // Windows: PATH split on `;`, quoted entries, PATHEXT in order, `.cmd` shims found.
        let win = Fake::new(&[("C:/npm/claude.cmd", "script"), ("C:/tools/claude.exe", "bin")]);
        let p = find_cli_in(
            &WIN_X64,
            &win,
            None,
            &[],
            Some("\"C:/npm\";C:/tools"),
            Some(".COM;.EXE;.BAT;.CMD"),
        )
        .unwrap();
        assert_eq!(p.path, Path::new("C:/npm/claude.cmd"));
        let p = find_cli_in(&WIN_X64, &win, None, &[], Some("C:/tools;C:/npm"), None).unwrap();
        assert_eq!(p.path, Path::new("C:/tools/claude.exe"));
    }

    #[test]
    fn not_found_says_what_was_searched_and_how_to_install() {
        let fs = Fake::new(&[("/app/node_modules/left-pad/index.js", "file")]);
        let err = find_cli_in(
            &ALPINE_ARM64,
            &fs,
            None,
            &[PathBuf::from("/app/src")],
            Some("/usr/bin"),
            None,
        )
        .unwrap_err()
        .to_string();
        for part in [
            "linux-arm64 (musl)",
            "/app/node_modules",
            "@anthropic-ai/claude-code-linux-arm64-musl",
            "npm install @anthropic-ai/claude-code",
            "on PATH",
            "pathToClaudeCodeExecutable",
        ] {
            assert!(err.contains(part), "{part:?} missing from: {err}");
        }
        let win = find_cli_in(&WIN_X64, &Fake::new(&[]), None, &[], Some("C:/x"), None)
            .unwrap_err()
            .to_string();
        assert!(
            win.contains("`claude.exe` on PATH") && win.contains("claude-code-win32-x64"),
            "{win}"
        );
    }

    #[test]
    fn magic_numbers() {
        assert!(is_native_magic(b"\x7fELF"));
        assert!(is_native_magic(b"MZ\x90\0"));
        assert!(is_native_magic(&[0xcf, 0xfa, 0xed, 0xfe]));
        assert!(!is_native_magic(b"#!/b"));
    }

    #[test]
    fn explicit_path_on_the_real_file_system() {
        let d = std::env::temp_dir().join(format!("agent-core-discover-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let script = d.join("cli.mjs");
        std::fs::write(&script, "").unwrap();
        let found = find_cli(Some(script.to_str().unwrap()), &[], None).unwrap();
        assert!(found.is_script);
        let err = find_cli(Some("/no/such/claude"), &[], None).unwrap_err();
        assert!(err.to_string().contains("/no/such/claude"), "{err}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
