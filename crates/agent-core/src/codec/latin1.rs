//! JSON text re-encoded for JavaScript engines as Latin-1 (one byte per character): characters
//! up to U+00FF are their Latin-1 byte, the others become `\uXXXX` escapes, which mean the same
//! inside JSON strings (the only place non-ASCII can occur in valid JSON). An engine such as V8
//! then holds the text as a compact one-byte string and parses it without decoding UTF-8.

/// Appends `json` (valid JSON text) as Latin-1. ASCII runs are copied whole, found a word at a
/// time; only the characters after them are looked at one by one.
pub fn push_latin1_json(json: &str, out: &mut Vec<u8>) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = json.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while let Some(offset) = first_non_ascii(&bytes[at..]) {
        at += offset;
        out.extend_from_slice(&bytes[copied..at]);
        let c = json[at..].chars().next().expect("at is a char boundary");
        if (c as u32) < 0x100 {
            out.push(c as u32 as u8);
        } else {
            let mut units = [0u16; 2];
            for &unit in c.encode_utf16(&mut units).iter() {
                let u = unit as usize;
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    HEX[u >> 12],
                    HEX[(u >> 8) & 15],
                    HEX[(u >> 4) & 15],
                    HEX[u & 15],
                ]);
            }
        }
        at += c.len_utf8();
        copied = at;
    }
    out.extend_from_slice(&bytes[copied..]);
}

/// `json` as Latin-1 (see [`push_latin1_json`]).
pub fn latin1_json(json: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    push_latin1_json(json, &mut out);
    out
}

/// The length [`push_latin1_json`] gives `json`, without encoding it.
pub fn latin1_json_len(json: &str) -> usize {
    let bytes = json.as_bytes();
    let mut len = 0;
    let mut at = 0;
    while let Some(offset) = first_non_ascii(&bytes[at..]) {
        len += offset;
        at += offset;
        let c = json[at..].chars().next().expect("at is a char boundary");
        len += match c as u32 {
            0..=0xff => 1,
            0x100..=0xffff => 6,
            _ => 12,
        };
        at += c.len_utf8();
    }
    len + (bytes.len() - at)
}

fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    const CHUNK: usize = 32;
    let mut start = 0;
    // `is_ascii` on a slice checks a word at a time.
    while start + CHUNK <= bytes.len() && bytes[start..start + CHUNK].is_ascii() {
        start += CHUNK;
    }
    bytes[start..].iter().position(|b| !b.is_ascii()).map(|p| start + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_without_encoding() {
        for json in [r#"{"a":"x"}"#, r#"{"a":"é—🌍 plain"}"#, "🌍🌍", ""] {
            assert_eq!(latin1_json_len(json), latin1_json(json).len(), "{json}");
        }
    }

    /// As a JavaScript engine reads Latin-1: each byte one character.
    fn as_engine_reads(bytes: &[u8]) -> String {
        bytes.iter().map(|&b| b as char).collect()
    }

    #[test]
    fn means_the_same_json() {
        let json = format!(r#"{{"a":"é🌍 — naïve","b":1,"c":"{}ü"}}"#, "x".repeat(70));
        let out = latin1_json(&json);
        let back: serde_json::Value = serde_json::from_str(&as_engine_reads(&out)).unwrap();
        assert_eq!(back, serde_json::from_str::<serde_json::Value>(&json).unwrap());
        assert!(out.contains(&0xe9), "é stays one Latin-1 byte");
        assert!(
            as_engine_reads(&out).contains(r"\ud83c\udf0d"),
            "a character above U+FFFF becomes a surrogate pair"
        );
    }

    #[test]
    fn finds_non_ascii_at_every_position() {
        for len in [0, 1, 31, 32, 33, 64, 100] {
            for at in 0..=len {
                let mut s = "a".repeat(len);
                if at < len {
                    s.replace_range(at..at + 1, "—");
                }
                assert_eq!(
                    as_engine_reads(&latin1_json(&s)),
                    s.replace('—', r"\u2014"),
                    "len {len} at {at}"
                );
            }
        }
    }
}
