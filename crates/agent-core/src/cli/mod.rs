//! Everything about the Claude Code process before the protocol starts: where the executable
//! is ([`discover`]), how it is invoked ([`launch`]), and running it ([`process`]).

pub mod child;
pub mod custom;
pub mod discover;
pub mod launch;
pub mod limits;
pub mod os;
pub mod process;
pub mod signal;
