//! Lone surrogates. `JSON.parse` takes a string escape of a lone UTF-16 surrogate (`"\ud800"`,
//! which `JSON.stringify` writes for a string cut in the middle of a surrogate pair) and gives a
//! JavaScript string holding it; a Rust string cannot hold one, so serde_json refuses such a
//! string, and a line with one in a field the readers decode (a uuid, a timestamp, an origin, a
//! voice record's content...) was read as if it were not there.
//!
//! A transcript with one (the line scanner notes it, at no cost for the others) is read through
//! [`mask`]: each lone surrogate escape becomes the escape of a character of the last private-use
//! plane, `U+10F800 + (unit - 0xD800)`, which every reader takes and compares as it would the
//! surrogate (distinct surrogates stay distinct, equal ones equal). The result's JSON text then
//! goes through [`unmask`], which writes those characters back as the surrogates' escapes, so
//! `JSON.parse` gives the caller the strings the official gives.
//!
//! The limit: a transcript holding both a lone surrogate and a character of
//! `U+10F800..=U+10FFFF` (raw, or as an escaped pair) reads that character as a surrogate.

/// The first character standing for a lone surrogate (`0xD800` stands as this one).
const BASE: u32 = 0x10F800;

/// `text` with every lone surrogate escape replaced by the escaped pair of the character that
/// stands for it.
pub(crate) fn mask(text: &str) -> String {
    replace_lone(text, |u| {
        let c = BASE + (u - 0xD800);
        let (hi, lo) = (0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF));
        format!("\\u{hi:04x}\\u{lo:04x}")
    })
}

/// Whether `text` has a lone surrogate escape (searched for as `\\u`, which transcripts seldom
/// have: `JSON.stringify` escapes only control characters and lone surrogates).
pub(crate) fn has_lone(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memmem::find_iter(b, b"\\u").any(|at| {
        // A `\u` that is itself the escaped backslash of `\\u` is not an escape: count the
        // backslashes before it.
        let run = b[..at].iter().rev().take_while(|&&c| c == b'\\').count();
        if run % 2 == 1 {
            return false;
        }
        match hex4(b.get(at + 2..at + 6)) {
            Some(0xD800..=0xDBFF) => {
                !(b.get(at + 6..at + 8) == Some(b"\\u")
                    && matches!(hex4(b.get(at + 8..at + 12)), Some(0xDC00..=0xDFFF)))
            }
            Some(0xDC00..=0xDFFF) => {
                // A low one is lone unless it ends a pair that starts right before it.
                !(at >= 6
                    && b[at - 6] == b'\\'
                    && b[at - 5] == b'u'
                    && matches!(hex4(b.get(at - 4..at)), Some(0xD800..=0xDBFF))
                    && b[..at - 6].iter().rev().take_while(|&&c| c == b'\\').count() % 2 == 0)
            }
            _ => false,
        }
    })
}

/// Whether `s` holds a character [`mask`] puts in for a lone surrogate.
pub fn has_masked(s: &str) -> bool {
    s.chars().any(|c| c as u32 >= BASE)
}

/// JSON text from JavaScript (`JSON.stringify` writes a lone surrogate as its escape), ready for
/// serde: masked when it has a lone surrogate escape (then `true`), borrowed as it is otherwise.
/// What is built from it goes back out through [`unmask`] (to the CLI, or into a file), so the
/// value arrives as `JSON.stringify` wrote it.
pub fn from_js(json: &str) -> (std::borrow::Cow<'_, str>, bool) {
    if has_lone(json) {
        (std::borrow::Cow::Owned(mask(json)), true)
    } else {
        (std::borrow::Cow::Borrowed(json), false)
    }
}

/// JSON text with its lone surrogate escapes replaced by that of U+FFFD, the replacement
/// character: for a reader whose strings cannot hold them (the Rust SDK's `serde_json` values),
/// as `String::from_utf16_lossy` reads them. Borrowed as it is when it has none.
pub fn lossy(json: &str) -> std::borrow::Cow<'_, str> {
    if memchr::memmem::find(json.as_bytes(), b"\\u").is_none() {
        return std::borrow::Cow::Borrowed(json);
    }
    let out = replace_lone(json, |_| "\\ufffd".to_string());
    if out == json {
        std::borrow::Cow::Borrowed(json)
    } else {
        std::borrow::Cow::Owned(out)
    }
}

/// `text` with each lone surrogate escape replaced by `with(unit)`.
fn replace_lone(text: &str, with: impl Fn(u32) -> String) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    let mut i = 0;
    while let Some(n) = memchr::memchr(b'\\', &b[i..]) {
        let at = i + n;
        match b.get(at + 1) {
            Some(b'u') => {
                let unit = hex4(b.get(at + 2..at + 6));
                match unit {
                    Some(0xD800..=0xDBFF)
                        if matches!(hex4(b.get(at + 8..at + 12)), Some(0xDC00..=0xDFFF))
                            && b.get(at + 6..at + 8) == Some(b"\\u") =>
                    {
                        i = at + 12
                    }
                    Some(u @ 0xD800..=0xDFFF) => {
                        out.push_str(&text[copied..at]);
                        out.push_str(&with(u));
                        copied = at + 6;
                        i = at + 6;
                    }
                    _ => i = at + 2,
                }
            }
            // Any other escape (an escaped backslash included) is two bytes.
            Some(_) => i = at + 2,
            None => break,
        }
        if i >= b.len() {
            break;
        }
    }
    out.push_str(&text[copied.min(text.len())..]);
    out
}

/// A string read from masked text, as a reader whose strings cannot hold lone surrogates reads
/// the original: each character [`mask`] put in stands as U+FFFD, the replacement character
/// (as [`lossy`] reads their escapes).
pub fn unmask_lossy(s: String) -> String {
    if !s.chars().any(|c| c as u32 >= BASE) {
        return s;
    }
    s.chars()
        .map(|c| if c as u32 >= BASE { '\u{FFFD}' } else { c })
        .collect()
}

/// JSON text with the characters [`mask`] put in (raw, or as the escaped pairs it wrote) written
/// back as the escapes of the lone surrogates they stand for.
pub fn unmask(json: &str) -> String {
    let b = json.as_bytes();
    let mut out = String::with_capacity(json.len());
    let mut copied = 0;
    let mut i = 0;
    // Both forms start with a byte that is rare in JSON text: a backslash, or 0xF4 (the lead
    // byte of U+100000 and above).
    while let Some(n) = memchr::memchr2(b'\\', 0xF4, &b[i..]) {
        let at = i + n;
        if b[at] == 0xF4 {
            // U+10F800..=U+10FFFF is F4 8F A0..BF 80..BF.
            if b.get(at + 1) == Some(&0x8F) && matches!(b.get(at + 2), Some(0xA0..=0xBF)) {
                let c = 0x10F000 | (u32::from(b[at + 2] & 0x3F) << 6) | u32::from(b[at + 3] & 0x3F);
                out.push_str(&json[copied..at]);
                out.push_str(&format!("\\u{:04x}", c - BASE + 0xD800));
                copied = at + 4;
            }
            i = at + 1;
            continue;
        }
        match b.get(at + 1) {
            Some(b'u') => {
                let pair = (
                    hex4(b.get(at + 2..at + 6)),
                    b.get(at + 6..at + 8),
                    hex4(b.get(at + 8..at + 12)),
                );
                if let (Some(hi @ 0xD800..=0xDBFF), Some(b"\\u"), Some(lo @ 0xDC00..=0xDFFF)) = pair {
                    let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    if c >= BASE {
                        out.push_str(&json[copied..at]);
                        out.push_str(&format!("\\u{:04x}", c - BASE + 0xD800));
                        copied = at + 12;
                    }
                    i = at + 12;
                } else {
                    i = at + 6;
                }
            }
            Some(_) => i = at + 2,
            None => break,
        }
        if i >= b.len() {
            break;
        }
    }
    out.push_str(&json[copied.min(json.len())..]);
    out
}

/// The value of four hex digits.
fn hex4(h: Option<&[u8]>) -> Option<u32> {
    let h = h?;
    if h.len() != 4 || !h.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_surrogates_round_trip_and_pairs_stay() {
        let text = r#"{"a":"x\ud800y","b":"\uDFFF","c":"\ud83d\ude00","d":"\\ud800","e":"\udbff\u0041","f":"\u00e9"}"#;
        let masked = mask(text);
        let v: serde_json::Value = serde_json::from_str(&masked).unwrap();
        assert_eq!(v["a"], "x\u{10F800}y");
        assert_eq!(v["b"], "\u{10FFFF}");
        assert_eq!(v["c"], "\u{1F600}");
        assert_eq!(v["d"], "\\ud800");
        assert_eq!(v["e"], "\u{10FBFF}A");
        // Back from the masked text as it is, and from serde's writing of what it decoded.
        for json in [masked.clone(), v.to_string()] {
            let back = unmask(&json);
            let w: serde_json::Value = serde_json::from_str(&mask(&back)).unwrap();
            assert_eq!(w, v);
            assert!(
                back.contains(r"x\ud800y") && back.contains(r"\udfff") && back.contains(r"\udbff"),
                "{back}"
            );
            assert!(!back.contains('\u{10F800}'));
        }
        assert_eq!(mask("plain \\\" text"), "plain \\\" text");
        assert!(has_lone(text) && has_lone(r#""\udc00""#) && has_lone(r#""\\\ud800""#));
        assert!(!has_lone(r#"{"c":"\ud83d\ude00","d":"\\ud800","e":"\u00e9"}"#));
        let v: serde_json::Value = serde_json::from_str(&lossy(text)).unwrap();
        assert_eq!(
            (v["a"].as_str(), v["c"].as_str(), v["d"].as_str()),
            (Some("x\u{FFFD}y"), Some("\u{1F600}"), Some("\\ud800"))
        );
        assert!(matches!(lossy(r#"{"a":"\u00e9"}"#), std::borrow::Cow::Borrowed(_)));
        assert_eq!(
            unmask("{\"a\":\"\u{1F600}\u{10F7FF}\"}"),
            "{\"a\":\"\u{1F600}\u{10F7FF}\"}"
        );
    }
}
