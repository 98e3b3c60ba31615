//! Crash-safe writes: whole lines appended with one `write`, and whole files written to a
//! temporary name and renamed into place.

use std::io::Write;
use std::path::Path;

/// Appends `text` to an existing, non-empty file in one write. `Ok(false)` when the file is
/// missing or empty (the caller tries the next candidate).
/// A file the fence refuses (a link out of the projects tree, a FIFO) is an error.
pub(crate) fn append_existing(path: &Path, text: &str) -> Result<bool, super::fence::Refused> {
    let mut f = match super::fence::open_append(path) {
        Ok(f) => f,
        Err(super::fence::Refused::Io(e))
            if e.kind() == std::io::ErrorKind::NotFound || e.raw_os_error() == Some(libc::ENOTDIR) =>
        {
            return Ok(false)
        }
        Err(r) => return Err(r),
    };
    if f.metadata()?.len() == 0 {
        return Ok(false);
    }
    // O_APPEND and a single write: a reader (or a crash) sees the line entirely or not at all.
    f.write_all(text.as_bytes())?;
    Ok(true)
}

/// Writes `bytes` to `path` through a temporary file in the same folder, fsynced, then renamed
/// over `path`, with mode 0600.
pub(crate) fn replace_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().ok_or_else(|| std::io::Error::other("no parent folder"))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.{}.tmp", std::process::id(), nanos()));
    let result = (|| {
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// A random version-4 UUID (from the OS's random source).
pub fn uuid_v4() -> String {
    let mut b = [0u8; 16];
    fill_random(&mut b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn fill_random(buf: &mut [u8]) {
    use std::io::Read;
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(buf))
        .is_ok()
    {
        return;
    }
    // No /dev/urandom (Windows): hash-based bytes seeded by time, pid and a counter.
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    for chunk in buf.chunks_mut(8) {
        let mut h = RandomState::new().build_hasher();
        h.write_u128(nanos());
        let v = h.finish().to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
}

/// Now as an ISO 8601 UTC timestamp with milliseconds (`Date.prototype.toISOString`).
pub fn now_iso() -> String {
    let ms = nanos() / 1_000_000;
    iso_from_ms(ms as i64)
}

pub fn iso_from_ms(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let milli = ms.rem_euclid(1000);
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    // Civil from days (Howard Hinnant).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{milli:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_roundtrip() {
        assert_eq!(iso_from_ms(1767323045678), "2026-01-02T03:04:05.678Z");
        assert!(super::super::info::parse_iso_ms(&now_iso()).is_some());
        let u = uuid_v4();
        assert!(super::super::paths::is_uuid(&u));
    }

    #[test]
    fn append_and_replace() {
        let dir = std::env::temp_dir().join(format!("sess-write-{}", uuid_v4()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.jsonl");
        assert!(!append_existing(&f, "x\n").unwrap());
        std::fs::write(&f, "").unwrap();
        assert!(!append_existing(&f, "x\n").unwrap());
        std::fs::write(&f, "1\n").unwrap();
        assert!(append_existing(&f, "2\n").unwrap());
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "1\n2\n");
        replace_file(&f, b"new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
