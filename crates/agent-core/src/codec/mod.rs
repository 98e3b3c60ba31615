//! NDJSON framing. The CLI writes one JSON value per line; lines can be any length (a tool
//! result or a file read can be megabytes) and arrive split across reads at arbitrary byte
//! offsets, including inside a multi-byte UTF-8 sequence. And the text of a line as a
//! JavaScript consumer wants it (`latin1`).

mod latin1;
mod line_framer;
mod line_reader;
pub(crate) mod read_buffer;

pub use latin1::{latin1_json, latin1_json_len, push_latin1_json};
pub use line_framer::{LineFramer, ReadLine, DEFAULT_MAX_LINE_BYTES};
pub use line_reader::LineReader;
pub use read_buffer::ReadBuffer;
