//! The stream-json control protocol: what arrives on the CLI's stdout ([`incoming`]) and what we
//! write to its stdin ([`outgoing`]).

pub mod incoming;
pub mod outgoing;
