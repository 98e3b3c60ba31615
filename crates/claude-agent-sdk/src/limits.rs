//! [`ResourceLimits`]: bounds on the memory and CPU time of the CLI and everything it starts
//! (`resourceLimits` in TypeScript). Past one, the whole tree is stopped and the query ends with
//! [`Error::ResourceLimit`](crate::Error::ResourceLimit), after every message before it.

use std::time::Duration;

use crate::error::{Error, Result};

/// Bounds on the memory and CPU time of the CLI and every process it starts, together:
/// `ResourceLimits::new().max_memory_mb(2048).max_cpu(Duration::from_secs(600))`.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ResourceLimits {
    max_memory_mb: Option<u64>,
    max_cpu: Option<Duration>,
}

impl ResourceLimits {
    /// No bound yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// At most this many megabytes (MiB) of memory for the whole tree.
    pub fn max_memory_mb(mut self, mb: u64) -> Self {
        self.max_memory_mb = Some(mb);
        self
    }

    /// At most this much CPU time (user + system) for the whole tree.
    pub fn max_cpu(mut self, cpu: Duration) -> Self {
        self.max_cpu = Some(cpu);
        self
    }

    /// The engine's form; a zero bound is an error naming it.
    pub(crate) fn to_core(self) -> Result<agent_core::cli::limits::ResourceLimits> {
        if self.max_memory_mb == Some(0) {
            return Err(Error::InvalidOption(
                "Invalid option `resource_limits`: max_memory_mb must be at least 1".into(),
            ));
        }
        if self.max_cpu == Some(Duration::ZERO) {
            return Err(Error::InvalidOption(
                "Invalid option `resource_limits`: max_cpu must be longer than zero".into(),
            ));
        }
        Ok(agent_core::cli::limits::ResourceLimits {
            max_memory_mb: self.max_memory_mb.map(|mb| mb as f64),
            max_cpu_seconds: self.max_cpu.map(|d| d.as_secs_f64()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_and_refuses_zero_bounds_by_name() {
        let l = ResourceLimits::new()
            .max_memory_mb(512)
            .max_cpu(Duration::from_millis(1500))
            .to_core()
            .unwrap();
        assert_eq!((l.max_memory_mb, l.max_cpu_seconds), (Some(512.0), Some(1.5)));
        let e = ResourceLimits::new().max_memory_mb(0).to_core().unwrap_err();
        assert!(e.to_string().contains("max_memory_mb"), "{e}");
        let e = ResourceLimits::new().max_cpu(Duration::ZERO).to_core().unwrap_err();
        assert!(e.to_string().contains("max_cpu"), "{e}");
    }
}
