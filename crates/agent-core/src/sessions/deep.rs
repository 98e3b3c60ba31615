//! Transcript lines as trees, whatever their depth. `serde_json` builds a tree at most 128
//! levels deep, and `JSON.parse` (which wrote and reads the transcript) has no such limit: a
//! tool input nested 300 deep is a line `getSessionMessages` reads and a tree could not hold.
//! A reader that rewrites lines (a fork) reads such a line here: every subtree too deep to build
//! stands as a placeholder string (with a random nonce no transcript holds), and its text comes
//! back, byte for byte, when the rewritten line is written out ([`Deep::restore`]). The levels
//! above it — where a fork changes uuids and links — are an ordinary tree.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// How many levels [`Deep::tree`] takes apart before it sets the rest aside.
const LEVELS: usize = 32;

/// The subtrees set aside while reading lines, for [`Deep::restore`].
pub(crate) struct Deep {
    nonce: String,
    kept: Vec<String>,
}

impl Deep {
    pub fn new() -> Self {
        Deep {
            nonce: super::write::uuid_v4(),
            kept: Vec::new(),
        }
    }

    /// The line as a tree; `None` when it is not JSON at all (a torn last line, as the CLI
    /// leaves after a crash, which every reader skips).
    pub fn read(&mut self, line: &str) -> Option<Value> {
        if let Ok(v) = serde_json::from_str::<Value>(line) {
            return Some(v);
        }
        // Skipping a value is iterative in serde_json: any depth is read.
        let raw = serde_json::from_str::<&RawValue>(line).ok()?;
        Some(self.tree(raw, 0))
    }

    /// `raw` as a tree down to where it can be built, the rest as placeholders (at most
    /// [`LEVELS`] levels are taken apart here: a line a million levels deep costs no more).
    fn tree(&mut self, raw: &RawValue, depth: usize) -> Value {
        if let Ok(v) = serde_json::from_str::<Value>(raw.get()) {
            return v;
        }
        match raw.get().as_bytes().first().filter(|_| depth < LEVELS) {
            Some(b'{') => {
                if let Ok(Pairs(members)) = serde_json::from_str::<Pairs<'_>>(raw.get()) {
                    let mut m = Map::new();
                    for (k, v) in members {
                        let v = self.tree(v, depth + 1);
                        m.insert(k, v);
                    }
                    return Value::Object(m);
                }
            }
            Some(b'[') => {
                if let Ok(items) = serde_json::from_str::<Vec<&RawValue>>(raw.get()) {
                    return Value::Array(items.into_iter().map(|v| self.tree(v, depth + 1)).collect());
                }
            }
            _ => {}
        }
        self.kept.push(raw.get().to_string());
        Value::String(format!("\u{0}deep:{}:{}\u{0}", self.nonce, self.kept.len() - 1))
    }

    /// JSON text with each placeholder written back as the text it stands for.
    pub fn restore(&self, text: String) -> String {
        if self.kept.is_empty() {
            return text;
        }
        let mut out = text;
        for (n, raw) in self.kept.iter().enumerate() {
            let placeholder = format!("\"\\u0000deep:{}:{n}\\u0000\"", self.nonce);
            out = out.replace(&placeholder, raw);
        }
        out
    }
}

/// A JSON object's members in order, each value as raw text.
struct Pairs<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> serde::Deserialize<'de> for Pairs<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for V<'a> {
            type Value = Pairs<'a>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Pairs<'a>, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!("{}\"x\"{}", "{\"a\":[".repeat(depth), "]}".repeat(depth))
    }

    #[test]
    fn a_line_deeper_than_serde_builds_is_read_and_written_back_as_it_was() {
        let deep = nested(300);
        let line = format!(
            r#"{{"type":"user","uuid":"u1","parentUuid":null,"message":{{"role":"user","content":[{{"type":"tool_result","content":{deep}}}]}},"z":1}}"#
        );
        assert!(
            serde_json::from_str::<Value>(&line).is_err(),
            "deeper than serde's limit"
        );
        let mut d = Deep::new();
        let mut v = d.read(&line).expect("read");
        assert!(!d.kept.is_empty());
        assert_eq!(v["uuid"], "u1");
        assert_eq!(v["message"]["role"], "user");
        v["uuid"] = Value::String("u2".into());
        let back = d.restore(v.to_string());
        assert_eq!(
            back,
            line.replace("\"u1\"", "\"u2\""),
            "only the uuid changed, the order kept"
        );
        assert!(d.read("{\"type\":\"us").is_none(), "a torn line is not JSON");
        let very = format!(r#"{{"uuid":"u1","x":{}}}"#, nested(20_000));
        let mut d = Deep::new();
        let v = d.read(&very).expect("read");
        assert_eq!(d.restore(v.to_string()), very);
        let mut plain = Deep::new();
        assert_eq!(plain.read(r#"{"a":1}"#), Some(serde_json::json!({"a":1})));
        assert!(plain.kept.is_empty());
    }
}
