//! A resumed session's private config folder, and its removal.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A resumed session's private config folder, removed once the CLI that uses it has exited
/// ([`remove`](Self::remove)), or when dropped.
#[derive(Debug)]
pub(crate) struct ResumeDir(pub PathBuf);

impl ResumeDir {
    /// Removes the folder once nothing else holds it (options cloned before the query keep it),
    /// as the TypeScript SDK does: up to 5 tries, 100, 200, 300 and 400 ms apart, while the
    /// system says the folder is busy or in use (`EBUSY`, `EMFILE`, `ENFILE`, `ENOTEMPTY`,
    /// `EPERM`).
    pub(crate) async fn remove(dir: Arc<ResumeDir>) {
        let Ok(dir) = Arc::try_unwrap(dir) else { return };
        for attempt in 1..=5u64 {
            let path = dir.0.clone();
            match tokio::task::spawn_blocking(move || std::fs::remove_dir_all(path)).await {
                Ok(Err(e)) if attempt < 5 && busy(&e) => tokio::time::sleep(Duration::from_millis(attempt * 100)).await,
                _ => break,
            }
        }
        // Dropped now: a last try, which finds nothing left to remove when the above succeeded.
    }
}

/// The errors the TypeScript SDK tries a removal again on.
fn busy(e: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    #[cfg(unix)]
    const FILE_TABLE: [i32; 2] = [24, 23]; // EMFILE, ENFILE
    #[cfg(not(unix))]
    const FILE_TABLE: [i32; 0] = [];
    matches!(
        e.kind(),
        ErrorKind::ResourceBusy | ErrorKind::DirectoryNotEmpty | ErrorKind::PermissionDenied
    ) || e.raw_os_error().is_some_and(|c| FILE_TABLE.contains(&c))
}

impl Drop for ResumeDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
