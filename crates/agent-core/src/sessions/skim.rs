//! A validating JSON line scanner: checks that a transcript line is one JSON object (the same
//! grammar `JSON.parse` and serde_json accept: no control characters in strings, valid escapes
//! and numbers, nothing but whitespace after it) and hands back the text of the top-level
//! values whose keys it was asked for. Nothing is decoded or built: string bodies are skipped
//! with SIMD compares ([`super::jstring`]), which is what makes reading a large transcript cheap
//! (serde_json's scanner looks at every byte of every string body).

/// JSON whitespace (the only bytes allowed between tokens).
#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// How string bodies are read: checked ([`CHECK`]); checked, and as UTF-8 too ([`UTF8`]: bytes
/// outside strings are ASCII by the grammar, so a line this scanner takes is UTF-8 whole); or
/// only their ends found, in text the scanner has taken before ([`TAKEN`]).
struct Scanner<'a, const MODE: u8> {
    b: &'a [u8],
    i: usize,
    /// A `\\u` escape of a lone surrogate was met (one `JSON.parse` takes, but that no Rust
    /// string can hold).
    lone: bool,
}

const CHECK: u8 = 0;
const UTF8: u8 = 1;
const TAKEN: u8 = 2;

impl<'a, const MODE: u8> Scanner<'a, MODE> {
    #[inline]
    fn ws(&mut self) {
        while self.i < self.b.len() && is_ws(self.b[self.i]) {
            self.i += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// A string starting at the opening quote at `self.i`; leaves `self.i` after the closing
    /// quote. Returns whether the body has a backslash.
    #[inline(always)]
    fn string(&mut self) -> Option<bool> {
        let end = match MODE {
            UTF8 => super::jstring::end_utf8(self.b, self.i)?,
            TAKEN => super::jstring::end_taken(self.b, self.i)?,
            _ => super::jstring::end(self.b, self.i)?,
        };
        self.i = end.at;
        self.lone |= end.lone;
        Some(end.escaped)
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        self.i - start
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        Some(())
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.b.get(self.i..self.i + word.len())? != word {
            return None;
        }
        self.i += word.len();
        Some(())
    }

    /// `"key"` then `:`, with the whitespace around them.
    fn key(&mut self) -> Option<()> {
        self.ws();
        if self.peek()? != b'"' {
            return None;
        }
        self.string()?;
        self.ws();
        if self.peek()? != b':' {
            return None;
        }
        self.i += 1;
        Some(())
    }

    /// Any value starting at `self.i` (after whitespace), nested to any depth without recursion
    /// (`stack` holds whether each open container is an object).
    fn value(&mut self, stack: &mut Vec<bool>) -> Option<()> {
        stack.clear();
        loop {
            self.ws();
            match self.peek()? {
                b'"' => {
                    self.string()?;
                }
                b'{' => {
                    self.i += 1;
                    self.ws();
                    if self.peek()? == b'}' {
                        self.i += 1;
                    } else {
                        stack.push(true);
                        self.key()?;
                        continue;
                    }
                }
                b'[' => {
                    self.i += 1;
                    self.ws();
                    if self.peek()? == b']' {
                        self.i += 1;
                    } else {
                        stack.push(false);
                        continue;
                    }
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                _ => self.number()?,
            }
            // After a value: close containers, or go on to the next element.
            loop {
                let Some(&object) = stack.last() else { return Some(()) };
                self.ws();
                let c = self.peek()?;
                self.i += 1;
                match c {
                    b',' => {
                        if object {
                            self.key()?;
                        }
                        break;
                    }
                    b'}' if object => {
                        stack.pop();
                    }
                    b']' if !object => {
                        stack.pop();
                    }
                    _ => return None,
                }
            }
        }
    }
}

impl<'a, const MODE: u8> Scanner<'a, MODE> {
    /// Any value at `self.i` (after whitespace); whether it is a string with a backslash.
    #[inline]
    fn any(&mut self, stack: &mut Vec<bool>) -> Option<bool> {
        if self.peek()? == b'"' {
            self.string()
        } else {
            self.value(stack).map(|_| false)
        }
    }

    /// After an element of a container: `true` at a `,` (another element follows), `false` at
    /// `close` (the container ends), `None` at anything else.
    #[inline]
    fn next_in(&mut self, close: u8) -> Option<bool> {
        self.ws();
        let c = self.peek()?;
        self.i += 1;
        match c {
            b',' => Some(true),
            _ if c == close => Some(false),
            _ => None,
        }
    }

    /// A key's string at `self.i` as [`Skimmer::object_slots`] matches it (decoded when it has
    /// escapes; one that does not decode, a lone surrogate, reads as `"\0"`), then the `:`.
    fn key_text(&mut self) -> Option<std::borrow::Cow<'a, [u8]>> {
        let start = self.i;
        let escaped = self.string()?;
        let key = if escaped {
            let decoded = serde_json::from_slice::<String>(&self.b[start..self.i]).ok();
            std::borrow::Cow::Owned(decoded.map_or(vec![0], String::into_bytes))
        } else {
            std::borrow::Cow::Borrowed(&self.b[start + 1..self.i - 1])
        };
        self.ws();
        if self.peek()? != b':' {
            return None;
        }
        self.i += 1;
        self.ws();
        Some(key)
    }

    /// A message value (after whitespace), scanned as [`Scanner::any`] scans it (the same
    /// grammar and checks) while noting the `tool_use` and `tool_result` blocks of its
    /// `content` array in `tools` (the last `content` counts, as with `JSON.parse`).
    fn message(&mut self, stack: &mut Vec<bool>, tools: &mut Vec<ToolSpan>) -> Option<bool> {
        tools.clear();
        if self.peek()? != b'{' {
            return self.any(stack);
        }
        self.i += 1;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(false);
        }
        loop {
            self.ws();
            if self.peek()? != b'"' {
                return None;
            }
            if &*self.key_text()? == b"content" {
                tools.clear();
                self.content(stack, tools)?;
            } else {
                self.any(stack)?;
            }
            if !self.next_in(b'}')? {
                return Some(false);
            }
        }
    }

    /// A message's `content` value (see [`Scanner::message`]).
    fn content(&mut self, stack: &mut Vec<bool>, tools: &mut Vec<ToolSpan>) -> Option<()> {
        if self.peek()? != b'[' {
            return self.any(stack).map(|_| ());
        }
        self.i += 1;
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        loop {
            self.ws();
            if self.peek()? == b'{' {
                self.block(tools, stack)?;
            } else {
                self.any(stack)?;
            }
            if !self.next_in(b']')? {
                return Some(());
            }
        }
    }

    /// A content block (an object at `self.i`): noted in `tools` when its `type` is `tool_use` or
    /// `tool_result` and it counts as the split-message pass counts blocks: none of `type`,
    /// `id`, `tool_use_id` and `text` repeated, each a string or null.
    fn block(&mut self, tools: &mut Vec<ToolSpan>, stack: &mut Vec<bool>) -> Option<()> {
        self.i += 1;
        self.ws();
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        // Per key (`type`, `id`, `tool_use_id`, `text`): how many times, the last value's text.
        let mut seen = [0u8; 4];
        let mut span = [(0usize, 0usize, false); 4];
        loop {
            self.ws();
            if self.peek()? != b'"' {
                return None;
            }
            let n = match &*self.key_text()? {
                b"type" => Some(0),
                b"id" => Some(1),
                b"tool_use_id" => Some(2),
                b"text" => Some(3),
                _ => None,
            };
            let start = self.i;
            let escaped = self.any(stack)?;
            if let Some(n) = n {
                seen[n] = seen[n].saturating_add(1);
                span[n] = (start, self.i, escaped);
            }
            if !self.next_in(b'}')? {
                break;
            }
        }
        let text = |n: usize| &self.b[span[n].0..span[n].1];
        if seen.iter().any(|&c| c > 1) || (0..4).any(|n| seen[n] == 1 && text(n) != b"null" && text(n)[0] != b'"') {
            return Some(());
        }
        if seen[0] == 0 || text(0)[0] != b'"' {
            return Some(());
        }
        let type_escaped = span[0].2;
        let result = if type_escaped {
            match serde_json::from_slice::<String>(text(0)).ok().as_deref() {
                Some("tool_use") => false,
                Some("tool_result") => true,
                _ => return Some(()),
            }
        } else {
            match &text(0)[1..text(0).len() - 1] {
                b"tool_use" => false,
                b"tool_result" => true,
                _ => return Some(()),
            }
        };
        let k = if result { 2 } else { 1 };
        tools.push(ToolSpan {
            result,
            type_escaped,
            id: (seen[k] == 1 && text(k)[0] == b'"').then_some((span[k].0, span[k].1)),
            id_escaped: span[k].2,
        });
        Some(())
    }
}

/// A `tool_use` or `tool_result` block of a message's content, as the line scan found it
/// ([`Skimmer::object_slots_utf8`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ToolSpan {
    /// A `tool_result` block (else a `tool_use` one).
    pub result: bool,
    /// Its `type` string has an escape (the name may not be in the text as it is).
    pub type_escaped: bool,
    /// Where its id (`id` of a `tool_use`, `tool_use_id` of a `tool_result`) is in the line, a
    /// JSON string with its quotes, when it is a string.
    pub id: Option<(usize, usize)>,
    /// The id string has an escape.
    pub id_escaped: bool,
}

/// Reusable state for [`object_fields`] (its container stack).
#[derive(Default)]
pub(crate) struct Skimmer {
    stack: Vec<bool>,
    /// A line this skimmer read had a lone surrogate escape (see [`crate::sessions::surrogate`]).
    pub lone: bool,
}

impl Skimmer {
    /// Checks that `line` is one JSON object and puts the text of the value of each top-level key
    /// found in `keys` into the same slot of `out` (where a key repeats, the last value counts, as
    /// with `JSON.parse`). Returns `false` for a line that is not a JSON object.
    pub(crate) fn object_fields<'a>(&mut self, line: &'a str, keys: &[&str], out: &mut [Option<&'a str>]) -> bool {
        self.object_slots(line, |k| keys.iter().position(|x| x.as_bytes() == k), out)
            .is_some()
    }

    /// [`Skimmer::object_fields`] with a function giving a key's slot. Returns a bit mask of the
    /// slots whose value is a string with a backslash in it (`None` for a line that is not a JSON
    /// object).
    pub(crate) fn object_slots<'a>(
        &mut self,
        line: &'a str,
        slot: impl Fn(&[u8]) -> Option<usize>,
        out: &mut [Option<&'a str>],
    ) -> Option<u64> {
        self.slots_of::<CHECK, _>(line, slot, out)
    }

    /// [`Skimmer::object_slots`] of text the scanner has taken before (a value of a line it
    /// took): string bodies are not checked again, only their ends found.
    pub(crate) fn object_slots_taken<'a>(
        &mut self,
        text: &'a str,
        slot: impl Fn(&[u8]) -> Option<usize>,
        out: &mut [Option<&'a str>],
    ) -> Option<u64> {
        self.slots_of::<TAKEN, _>(text, slot, out)
    }

    /// [`Skimmer::object_fields`] of text the scanner has taken before (see
    /// [`Skimmer::object_slots_taken`]).
    pub(crate) fn object_fields_taken<'a>(
        &mut self,
        text: &'a str,
        keys: &[&str],
        out: &mut [Option<&'a str>],
    ) -> bool {
        self.object_slots_taken(text, |k| keys.iter().position(|x| x.as_bytes() == k), out)
            .is_some()
    }

    fn slots_of<'a, const MODE: u8, F: Fn(&[u8]) -> Option<usize>>(
        &mut self,
        line: &'a str,
        slot: F,
        out: &mut [Option<&'a str>],
    ) -> Option<u64> {
        let mut s = Scanner::<MODE> {
            b: line.as_bytes(),
            i: 0,
            lone: false,
        };
        // Every cut is at an ASCII byte: on a character boundary.
        let r = self.fields(&mut s, slot, None, |n, a, z| out[n] = Some(&line[a..z]));
        self.lone |= s.lone;
        r
    }

    /// [`Skimmer::object_slots`] of bytes not yet known to be UTF-8: the line as text when it is
    /// one JSON object and UTF-8 (its string bodies checked as they are scanned), with the
    /// escape mask; `None` when it is not a JSON object, or not UTF-8 (which the caller tells
    /// apart by checking the line, rarely needed).
    ///
    /// With `tools` (a slot and a list), the value of that slot's key is scanned as a message
    /// and its tool blocks put in the list ([`ToolSpan`], of the last such key's value).
    pub(crate) fn object_slots_utf8<'a>(
        &mut self,
        line: &'a [u8],
        slot: impl Fn(&[u8]) -> Option<usize>,
        out: &mut [Option<&'a str>],
        tools: Option<(usize, &mut Vec<ToolSpan>)>,
    ) -> Option<(&'a str, u64)> {
        let mut s = Scanner::<UTF8> {
            b: line,
            i: 0,
            lone: false,
        };
        // Bytes the scanner took are UTF-8: outside string bodies it takes only ASCII bytes
        // (whitespace, punctuation, digits, `true`/`false`/`null`), and each string body it took
        // was checked by `jstring::end_utf8` (its tests compare it with `std::str::from_utf8`).
        let r = self.fields(&mut s, slot, tools, |n, a, z| {
            // SAFETY: `line[a..z]` is a value the scanner has just taken whole (a string, or a
            // container with everything in it), so it is UTF-8 (above) and starts and ends on
            // ASCII delimiters, never inside a character.
            out[n] = Some(unsafe { std::str::from_utf8_unchecked(&line[a..z]) })
        });
        self.lone |= s.lone;
        let escapes = r?;
        // SAFETY: `fields` returned `Some`, which it does only once the scanner took the whole
        // line (`s.i == line.len()`), so every byte of it is UTF-8 (above).
        Some((unsafe { std::str::from_utf8_unchecked(line) }, escapes))
    }

    /// Calls `f` with the text of each element of the JSON array `text`, which is a value of a
    /// line this scanner accepted (its grammar is not checked again, nor its strings' bodies).
    /// Returns `false` when `text` is not an array.
    pub(crate) fn array_items<'a>(&mut self, text: &'a str, mut f: impl FnMut(&'a str)) -> bool {
        let mut s = Scanner::<TAKEN> {
            b: text.as_bytes(),
            i: 0,
            lone: false,
        };
        s.ws();
        if s.peek() != Some(b'[') {
            return false;
        }
        s.i += 1;
        s.ws();
        if s.peek() == Some(b']') {
            return true;
        }
        loop {
            s.ws();
            let start = s.i;
            let ok = if s.peek() == Some(b'"') {
                s.string().is_some()
            } else {
                s.value(&mut self.stack).is_some()
            };
            if !ok {
                return false;
            }
            // Cuts at ASCII bytes: on character boundaries.
            f(&text[start..s.i]);
            s.ws();
            match s.peek() {
                Some(b',') => s.i += 1,
                Some(b']') => return true,
                _ => return false,
            }
        }
    }

    /// Scans the object; `put(slot, start, end)` for each key found by `slot`, its value being
    /// `s.b[start..end]`.
    fn fields<const MODE: u8>(
        &mut self,
        s: &mut Scanner<'_, MODE>,
        slot: impl Fn(&[u8]) -> Option<usize>,
        mut tools: Option<(usize, &mut Vec<ToolSpan>)>,
        mut put: impl FnMut(usize, usize, usize),
    ) -> Option<u64> {
        let mut escapes = 0u64;
        s.ws();
        if s.peek()? != b'{' {
            return None;
        }
        s.i += 1;
        s.ws();
        if s.peek()? == b'}' {
            s.i += 1;
        } else {
            loop {
                s.ws();
                if s.peek()? != b'"' {
                    return None;
                }
                let start = s.i;
                let escaped = s.string()?;
                let raw_key = &s.b[start + 1..s.i - 1];
                let decoded;
                let key: &[u8] = if escaped {
                    decoded = serde_json::from_slice::<String>(&s.b[start..s.i]).ok();
                    decoded.as_deref().unwrap_or("\u{0}").as_bytes()
                } else {
                    raw_key
                };
                s.ws();
                if s.peek()? != b':' {
                    return None;
                }
                s.i += 1;
                s.ws();
                let vstart = s.i;
                let n = slot(key);
                let escaped = match &mut tools {
                    Some((m, list)) if n == Some(*m) => s.message(&mut self.stack, list)?,
                    _ => s.any(&mut self.stack)?,
                };
                if let Some(n) = n {
                    put(n, vstart, s.i);
                    if n < 64 {
                        escapes = if escaped { escapes | 1 << n } else { escapes & !(1 << n) };
                    }
                }
                s.ws();
                match s.peek()? {
                    b',' => s.i += 1,
                    b'}' => {
                        s.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        s.ws();
        (s.i == s.b.len()).then_some(escapes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str) -> bool {
        let mut sk = Skimmer::default();
        let mut out = [None; 2];
        sk.object_fields(line, &["a", "b"], &mut out)
    }

    /// Lines whose string values run over many blocks of the string scan, with escapes, control
    /// characters and bad escapes at every offset: taken exactly when serde_json takes them, and
    /// the value's text is the whole string.
    #[test]
    fn long_strings_as_serde_reads_them() {
        let pieces = [
            r"\n",
            r#"\""#,
            r"\\",
            r"\u00e9",
            r"\ud83d\ude00",
            "\u{e9}",
            "\t",
            r"\x",
            r"\u12",
            "\u{1}",
        ];
        let mut taken = 0;
        for piece in pieces {
            for pad in 0..80 {
                let body = format!("{}{piece}{}", r"1\\n2".repeat(pad / 5), "y".repeat(pad));
                let line = format!(r#"{{"a":"{body}","b":["{body}",{{"c":"{body}"}}]}}"#);
                let serde = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&line).is_ok();
                let mut out = [None; 2];
                let ours = Skimmer::default().object_fields(&line, &["a", "b"], &mut out);
                assert_eq!(ours, serde, "{line:?}");
                if ours {
                    taken += 1;
                    assert_eq!(out[0], Some(format!("\"{body}\"").as_str()));
                    // Read again as text taken before: the same values.
                    let mut again = [None; 2];
                    assert!(Skimmer::default().object_fields_taken(&line, &["a", "b"], &mut again));
                    assert_eq!(again, out, "{line:?}");
                }
            }
        }
        assert_eq!(taken, 6 * 80, "the six good pieces are taken at every offset");
    }

    #[test]
    fn accepts_what_serde_accepts() {
        let lines = [
            r#"{}"#,
            r#" { "a" : 1 , "b":[1,2,{"c":[]}] } "#,
            r#"{"a":"x\"y\\z\/\b\f\n\r\t\u00e9"}"#,
            r#"{"a":-0.5e+10,"b":0,"c":1E5,"d":true,"e":false,"f":null}"#,
            r#"{"a":{"b":{"c":{"d":[[[[]]]]}}}}"#,
            "{\"a\":\"\u{e9}\u{1F600}\"}",
            r#"{"a":1,"a":2}"#,
            "{\"a\":1}\r",
            r#"{"a":"\ud800"}"#,
            // Not objects, or not JSON.
            r#"[1]"#,
            r#""x""#,
            r#"{"a":1"#,
            r#"{"a":1,}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":.5}"#,
            r#"{"a":1e}"#,
            r#"{"a":tru}"#,
            r#"{"a":"\x"}"#,
            r#"{"a":"\u12G4"}"#,
            "{\"a\":\"tab\there\"}",
            r#"{"a":1} x"#,
            r#"{"a":[1,]}"#,
            r#"{"a":[1 2]}"#,
            r#"{"a":{"b"}}"#,
            r#"{"a":{"b":1,}}"#,
            r#"{a:1}"#,
            r#"{"a":1]"#,
            r#"{"a":[}"#,
            "{\"a\":1}\u{b}",
            "",
        ];
        for line in lines {
            let ours = check(line);
            // The value of `a` scanned as a message takes the same lines.
            let mut spans = Vec::new();
            let with_tools = Skimmer::default()
                .object_slots_utf8(
                    line.as_bytes(),
                    |k| (k == b"a").then_some(0),
                    &mut [None],
                    Some((0, &mut spans)),
                )
                .is_some();
            assert_eq!(with_tools, ours, "{line:?}");
            let serde = serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(line).is_ok()
                || line == r#"{"a":"\ud800"}"#;
            assert_eq!(ours, serde, "{line:?}");
        }
    }

    #[test]
    fn fields_are_value_texts_last_wins() {
        let mut sk = Skimmer::default();
        let mut out = [None; 3];
        let line = r#"{"a":1,"x":{"a":9},"b" : [ 1 , 2 ] ,"\u0061":"s\"t","c":null}"#;
        assert!(sk.object_fields(line, &["a", "b", "c"], &mut out));
        assert_eq!(out, [Some(r#""s\"t""#), Some("[ 1 , 2 ]"), Some("null")]);
    }

    /// Bytes outside ASCII, good and bad, put in at every place of a line (keys, values, nested
    /// strings, between tokens, after the object): [`Skimmer::object_slots_utf8`] takes the line
    /// exactly when it is UTF-8 and [`Skimmer::object_slots`] takes its text, with the same
    /// values and escape mask.
    #[test]
    fn utf8_lines_as_text_lines_read() {
        let template = r#" {"a":"x\ny","k\u0041":[1,"z",{"b":"w"}],"b":"long body 0123456789 0123456789 0123456789 0123456789 0123456789 end" } "#;
        let pieces: [&[u8]; 7] = [
            "\u{e9}".as_bytes(),
            "\u{2014}".as_bytes(),
            "\u{1f916}".as_bytes(),
            b"\xff",
            b"\xe2\x80",
            b"\xa9",
            b"\xed\xa0\x80",
        ];
        let slot = |k: &[u8]| match k {
            b"a" => Some(0),
            b"b" => Some(1),
            b"kA" => Some(2),
            _ => None,
        };
        let (mut taken, mut utf8) = (0, 0);
        for piece in pieces {
            for at in 0..=template.len() {
                let mut line = template.as_bytes()[..at].to_vec();
                line.extend_from_slice(piece);
                line.extend_from_slice(&template.as_bytes()[at..]);
                let mut ours = [None; 3];
                let got = Skimmer::default().object_slots_utf8(&line, slot, &mut ours, None);
                let mut want = [None; 3];
                let text = std::str::from_utf8(&line).ok();
                let expected = text.and_then(|t| Skimmer::default().object_slots(t, slot, &mut want));
                assert_eq!(
                    got.map(|(t, e)| (t.as_bytes(), e)),
                    text.zip(expected).map(|(t, e)| (t.as_bytes(), e)),
                    "{line:x?}"
                );
                // (A line not taken may have filled some slots; they are not used.)
                if got.is_some() {
                    assert_eq!(ours, want, "{line:x?}");
                }
                // Each slot's value scanned as a message: the same line taken, the same values.
                for m in 0..3 {
                    let mut spans = Vec::new();
                    let mut again = [None; 3];
                    let with = Skimmer::default().object_slots_utf8(&line, slot, &mut again, Some((m, &mut spans)));
                    assert_eq!(with, got, "{m} {line:x?}");
                    if got.is_some() {
                        assert_eq!(again, ours, "{m} {line:x?}");
                    }
                }
                taken += usize::from(got.is_some());
                utf8 += usize::from(text.is_some());
            }
        }
        // The good pieces are taken inside the strings' bodies only.
        assert!(taken > 100 && taken < utf8, "{taken} of {utf8}");
    }

    #[test]
    fn deep_nesting_has_no_limit() {
        let line = format!("{{\"a\":{}{}}}", "[".repeat(5000), "]".repeat(5000));
        assert!(check(&line));
    }
}
