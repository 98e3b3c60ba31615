//! Signals by number and by Node's name, on every platform. On unix the numbers are the
//! platform's own (through `nix`); on Windows, which has no signals, they are the numbers Node
//! and libuv use there (the POSIX/Linux numbering), so `signal: 15` means SIGTERM everywhere a JS
//! caller can see it. What a signal *does* to a process on Windows is decided in `os::windows`.

pub const SIGTERM: i32 = sys::TERM;
pub const SIGKILL: i32 = sys::KILL;

/// The number of a signal Node names (`SIGTERM` for anything unknown: the polite default).
pub fn number(name: &str) -> i32 {
    sys::number(name).unwrap_or(SIGTERM)
}

/// Node's name for a signal number (`SIGKILL`), or the number itself when it has none.
pub fn name(signal: i32) -> String {
    sys::name(signal)
        .map(str::to_string)
        .unwrap_or_else(|| signal.to_string())
}

#[cfg(unix)]
mod sys {
    use nix::sys::signal::Signal;
    use std::str::FromStr;

    pub(crate) const TERM: i32 = Signal::SIGTERM as i32;
    pub(crate) const KILL: i32 = Signal::SIGKILL as i32;

    pub fn number(name: &str) -> Option<i32> {
        Signal::from_str(name).ok().map(|s| s as i32)
    }

    pub fn name(n: i32) -> Option<&'static str> {
        Signal::try_from(n).ok().map(Signal::as_str)
    }
}

#[cfg(not(unix))]
mod sys {
    /// libuv's numbering on Windows (uv.h / the POSIX numbers Node reports there).
    const TABLE: &[(&str, i32)] = &[
        ("SIGHUP", 1),
        ("SIGINT", 2),
        ("SIGQUIT", 3),
        ("SIGILL", 4),
        ("SIGABRT", 6),
        ("SIGFPE", 8),
        ("SIGKILL", 9),
        ("SIGSEGV", 11),
        ("SIGTERM", 15),
        ("SIGBREAK", 21),
        ("SIGWINCH", 28),
    ];
    pub const TERM: i32 = 15;
    pub(crate) const KILL: i32 = 9;

    pub fn number(name: &str) -> Option<i32> {
        TABLE.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }

    pub fn name(n: i32) -> Option<&'static str> {
        TABLE.iter().find(|(_, v)| *v == n).map(|(name, _)| *name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_round_trip_and_unknowns_fall_back() {
        for n in [
            "SIGHUP", "SIGINT", "SIGQUIT", "SIGABRT", "SIGKILL", "SIGSEGV", "SIGTERM",
        ] {
            assert_eq!(name(number(n)), n);
        }
        assert_eq!(number("SIGNOPE"), SIGTERM);
        assert_eq!(name(9999), "9999");
        assert_eq!((SIGTERM, SIGKILL), (15, 9));
    }
}
