//! Field search in transcript text without parsing whole files: the head and tail of a
//! transcript are scanned line by line for a key, and only a line that contains it is parsed.
//! Each function mirrors one of the official SDK's searches (first match, last match, last
//! entry of a type), so the same bytes give the same answer.

use serde_json::Value;

/// Substring search with memchr's SIMD searcher (`str::contains` is a scalar Two-Way search).
pub fn has(hay: &str, needle: &str) -> bool {
    memchr::memmem::find(hay.as_bytes(), needle.as_bytes()).is_some()
}

fn unescape(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_string();
    }
    serde_json::from_str::<String>(&format!("\"{raw}\"")).unwrap_or_else(|_| raw.to_string())
}

/// The string value after `"key":"` (or `"key": "`) at `start`, up to its closing quote.
fn quoted_at(text: &str, start: usize) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some((&text[start..i], i)),
            _ => i += 1,
        }
    }
    None
}

/// The first `"key":"value"` in `text` (compact spelling first, then the spaced one).
pub(crate) fn first_string(text: &str, key: &str) -> Option<String> {
    for pat in [format!("\"{key}\":\""), format!("\"{key}\": \"")] {
        if let Some(pos) = memchr::memmem::find(text.as_bytes(), pat.as_bytes()) {
            if let Some((raw, _)) = quoted_at(text, pos + pat.len()) {
                return Some(unescape(raw));
            }
        }
    }
    None
}

/// The last `"key":"value"` in `text`, whichever spelling.
pub(crate) fn last_string(text: &str, key: &str) -> Option<String> {
    let mut best: Option<(usize, String)> = None;
    for pat in [format!("\"{key}\":\""), format!("\"{key}\": \"")] {
        let mut from = 0;
        while let Some(rel) = memchr::memmem::find(&text.as_bytes()[from..], pat.as_bytes()) {
            let pos = from + rel;
            match quoted_at(text, pos + pat.len()) {
                Some((raw, end)) => {
                    if best.as_ref().is_none_or(|(p, _)| pos > *p) {
                        best = Some((pos, unescape(raw)));
                    }
                    from = end + 1;
                }
                None => break,
            }
            if from >= text.len() {
                break;
            }
        }
    }
    best.map(|(_, v)| v)
}

/// Parses `line` and returns its string field `field` when the entry's type is `ty` (or any).
/// `Err(())` when the line is not JSON.
fn field_of(line: &str, field: &str, ty: Option<&str>) -> Result<Option<String>, ()> {
    let v: Value = serde_json::from_str(line).map_err(|_| ())?;
    let Value::Object(map) = v else { return Ok(None) };
    if let Some(t) = ty {
        if map.get("type").and_then(Value::as_str) != Some(t) {
            return Ok(None);
        }
    }
    Ok(map.get(field).and_then(Value::as_str).map(str::to_string))
}

#[derive(Clone, Copy, PartialEq)]
pub enum Mode {
    /// No recovery of a partial line.
    Plain,
    /// A line that does not parse is retried from its last `{"type":"<ty>"` (lines written
    /// while another process appended without a newline).
    Older,
}

/// The last line (from the end of `text`) containing `"field":` and, with `ty`, `"type":"ty"`,
/// whose `field` is a string.
pub(crate) fn last_entry_field(text: &str, field: &str, ty: Option<&str>, mode: Mode) -> Option<String> {
    let key = format!("\"{field}\":");
    let types: Vec<String> = match (ty, mode) {
        (None, _) => Vec::new(),
        (Some(t), Mode::Plain) => vec![format!("\"type\":\"{t}\"")],
        (Some(t), Mode::Older) => vec![format!("\"type\":\"{t}\""), format!("\"type\": \"{t}\"")],
    };
    // Occurrences of the key (a forward SIMD search: memchr's reverse searcher is scalar), checked
    // from the last, one per line (the line's last).
    let bytes = text.as_bytes();
    let hits: Vec<usize> = memchr::memmem::find_iter(bytes, key.as_bytes()).collect();
    let mut end = bytes.len();
    for &pos in hits.iter().rev() {
        if pos >= end {
            continue;
        }
        let start = memchr::memrchr(b'\n', &bytes[..pos]).map_or(0, |i| i + 1);
        let stop = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i);
        end = start;
        let line = &text[start..stop];
        if !(types.is_empty() || types.iter().any(|t| has(line, t.as_str()))) {
            if end == 0 {
                break;
            }
            continue;
        }
        let mut found = field_of(line, field, ty);
        if found.is_err() && mode == Mode::Older {
            let marker = format!("{{{}", types[0]);
            found = match line.rfind(&marker) {
                Some(d) if d > 0 && !":,[".contains(line.as_bytes()[d - 1] as char) => field_of(&line[d..], field, ty),
                _ => Err(()),
            };
        }
        if let Ok(Some(s)) = found {
            return Some(s);
        }
        if end == 0 {
            break;
        }
    }
    None
}

/// A custom title, AI title or tag entry, searched from the end (official `Qn`).
pub(crate) fn titled(text: &str, ty: &str) -> Option<String> {
    let field = match ty {
        "custom-title" => "customTitle",
        "ai-title" => "aiTitle",
        _ => "tag",
    };
    last_entry_field(text, field, Some(ty), Mode::Older)
}

/// The first line containing `"field":` that parses with a string `field`.
pub(crate) fn first_line_field(text: &str, field: &str) -> Option<String> {
    let key = format!("\"{field}\":");
    text.split('\n')
        .filter(|l| has(l, &key))
        .find_map(|l| field_of(l, field, None).ok().flatten())
}

fn has_any(line: &str, a: &str, b: &str) -> bool {
    has(line, a) || has(line, b)
}

fn is_user_line(line: &str) -> bool {
    has_any(line, "\"type\":\"user\"", "\"type\": \"user\"")
}

/// Truncation to `n` UTF-16 code units without splitting a surrogate pair.
fn cut_utf16(s: &str, n: usize) -> &str {
    let mut units = 0;
    for (i, c) in s.char_indices() {
        let w = c.len_utf16();
        if units + w > n {
            return &s[..i];
        }
        units += w;
    }
    s
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// Whether `c` starts like a tag (`<name ` / `<name>`) or an interruption notice.
fn starts_like_markup(c: &str) -> bool {
    let t = c.trim_start();
    if t.starts_with("[Request interrupted by user") && t.contains(']') {
        return true;
    }
    let b = t.as_bytes();
    if b.len() < 3 || b[0] != b'<' || !b[1].is_ascii_lowercase() {
        return false;
    }
    let mut i = 2;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
        i += 1;
    }
    i < b.len() && (b[i] == b'>' || b[i].is_ascii_whitespace())
}

fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let a = s.find(open)? + open.len();
    let b = s[a..].find(close)? + a;
    Some(&s[a..b])
}

/// Pasted-content blocks are shown by their body (official `mR`).
fn strip_pasted(text: &str) -> String {
    // <pasted_content id="XXXX">\n ... \n</pasted_content>: keep the body without the wrapper.
    if !has(text, "<pasted_content id=\"") {
        return text.to_string();
    }
    let mut out = String::new();
    let mut rest = text;
    while let Some(pos) = rest.find("<pasted_content id=\"") {
        let after = &rest[pos + 20..];
        let ok = after.len() >= 7
            && after.as_bytes()[..4].iter().all(|c| c.is_ascii_hexdigit())
            && after[4..].starts_with("\">\n");
        let close = "\n</pasted_content>";
        match (ok, after.find(close)) {
            (true, Some(end)) if end >= 7 => {
                out.push_str(rest[..pos].trim_end_matches('\n'));
                out.push_str(&after[7..end]);
                rest = after[end + close.len()..].trim_start_matches('\n');
            }
            _ => {
                out.push_str(&rest[..pos + 20]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The prompt text of a user entry as the session list shows it (official `ps`, "stored"):
/// `Some(text)` for a real prompt, `None` otherwise; a slash command's name is kept in
/// `command_fallback`.
pub fn prompt_of(entry: &Value, command_fallback: &mut Option<String>) -> Option<String> {
    let obj = entry.as_object()?;
    if obj.get("type").and_then(Value::as_str) != Some("user") {
        return None;
    }
    if obj.get("isMeta") == Some(&Value::Bool(true)) || obj.get("isCompactSummary") == Some(&Value::Bool(true)) {
        return None;
    }
    let message = obj.get("message")?;
    if message.is_null() || message == &Value::Bool(false) {
        return None;
    }
    let content = message.get("content");
    let mut texts: Vec<&str> = Vec::new();
    match content {
        Some(Value::String(s)) => texts.push(s),
        Some(Value::Array(blocks)) => {
            for b in blocks {
                let Some(bo) = b.as_object() else { continue };
                match bo.get("type").and_then(Value::as_str) {
                    Some("tool_result") => return None,
                    Some("text") => {
                        if let Some(t) = bo.get("text").and_then(Value::as_str) {
                            texts.push(t)
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    for t in texts {
        let c = strip_pasted(t).replace('\n', " ");
        let c = c.trim();
        if c.is_empty() {
            continue;
        }
        if let Some(name) = between(c, "<command-name>", "</command-name>") {
            if command_fallback.as_deref().is_none_or(str::is_empty) {
                *command_fallback = Some(name.to_string());
            }
            continue;
        }
        if let Some(cmd) = between(c, "<bash-input>", "</bash-input>") {
            return Some(format!("! {}", cmd.trim()));
        }
        if starts_like_markup(c) {
            continue;
        }
        if utf16_len(c) > 200 {
            return Some(format!("{}…", cut_utf16(c, 200).trim()));
        }
        return Some(c.to_string());
    }
    None
}

/// A user entry reduced to what `prompt_of` reads (the content stays raw until needed).
#[derive(serde::Deserialize)]
struct PromptPeek<'a> {
    #[serde(borrow, rename = "type")]
    kind: Option<std::borrow::Cow<'a, str>>,
    #[serde(rename = "isMeta", default)]
    meta: Option<&'a serde_json::value::RawValue>,
    #[serde(rename = "isCompactSummary", default)]
    compact: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    message: Option<&'a serde_json::value::RawValue>,
}

#[derive(serde::Deserialize)]
struct ContentPeek<'a> {
    #[serde(borrow, default)]
    content: Option<&'a serde_json::value::RawValue>,
}

/// `prompt_of` for one line, building a JSON tree only of the message's content.
fn line_prompt(line: &str, fallback: &mut Option<String>) -> Option<String> {
    let p: PromptPeek<'_> = serde_json::from_str(line).ok()?;
    if p.kind.as_deref() != Some("user")
        || p.meta.is_some_and(|m| m.get() == "true")
        || p.compact.is_some_and(|m| m.get() == "true")
    {
        return None;
    }
    let msg = p.message?;
    let content = match msg.get().as_bytes().first() {
        Some(b'{') => serde_json::from_str::<ContentPeek<'_>>(msg.get()).ok()?.content,
        _ => return None,
    };
    let content: Value = match content {
        Some(c) => serde_json::from_str(c.get()).ok()?,
        None => Value::Null,
    };
    let entry = serde_json::json!({ "type": "user", "message": { "content": content } });
    prompt_of(&entry, fallback)
}

/// The first prompt in a transcript's head (official `ch`).
pub fn first_prompt(head: &str) -> String {
    let mut fallback = None;
    for line in head.split('\n') {
        if !is_user_line(line)
            || has(line, "\"tool_result\"")
            || has_any(line, "\"isMeta\":true", "\"isMeta\": true")
            || has_any(line, "\"isCompactSummary\":true", "\"isCompactSummary\": true")
        {
            continue;
        }
        if let Some(p) = line_prompt(line, &mut fallback) {
            return p;
        }
    }
    fallback.unwrap_or_default()
}

/// "Image" or "Document" when the first attachment-only prompt carries one (official `fF`).
pub(crate) fn attachment_prompt(head: &str) -> &'static str {
    for line in head.split('\n') {
        if !is_user_line(line) || has(line, "\"tool_result\"") || has_any(line, "\"isMeta\":true", "\"isMeta\": true") {
            continue;
        }
        if has_any(line, "\"type\":\"image\"", "\"type\": \"image\"") {
            return "Image";
        }
        if has_any(line, "\"type\":\"document\"", "\"type\": \"document\"") {
            return "Document";
        }
    }
    ""
}

/// Sessions started by an SDK or a daemon (official `ZU`), and by the Rust SDK (`sdk-rust`, an
/// entrypoint the official does not know of, being no SDK of its own).
pub(crate) fn is_programmatic(head: &str, tail: &str) -> bool {
    let ep = first_string(head, "entrypoint").or_else(|| last_string(tail, "entrypoint"));
    if matches!(ep.as_deref(), Some("sdk-cli" | "sdk-ts" | "sdk-py" | "sdk-rust")) {
        return true;
    }
    let line = head.split('\n').find(|l| has(l, "\"parentUuid\":")).unwrap_or(head);
    matches!(
        first_string(line, "sessionKind").as_deref(),
        Some("daemon" | "daemon-worker")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programmatic_sessions_by_entrypoint_or_kind() {
        let ep = |e: &str| format!("{{\"type\":\"user\",\"entrypoint\":\"{e}\",\"parentUuid\":null}}\n");
        for e in ["sdk-ts", "sdk-py", "sdk-cli", "sdk-rust"] {
            assert!(is_programmatic(&ep(e), ""), "{e}");
        }
        assert!(!is_programmatic(&ep("cli"), ""));
        assert!(
            is_programmatic("", &ep("sdk-rust")),
            "the tail's entrypoint when the head has none"
        );
        assert!(is_programmatic(
            "{\"parentUuid\":null,\"sessionKind\":\"daemon\"}\n",
            ""
        ));
    }

    #[test]
    fn searches() {
        let t = "{\"type\":\"user\",\"cwd\":\"/a\\\"b\"}\n{\"type\":\"custom-title\",\"customTitle\":\"One\"}\n{\"type\":\"custom-title\",\"customTitle\":\"Two\"}\n";
        assert_eq!(first_string(t, "cwd").as_deref(), Some("/a\"b"));
        assert_eq!(titled(t, "custom-title").as_deref(), Some("Two"));
        assert_eq!(last_string(t, "customTitle").as_deref(), Some("Two"));
        let broken = "{\"type\":\"user\",\"x\":1{\"type\":\"tag\",\"tag\":\"t1\"}\n";
        assert_eq!(titled(broken, "tag").as_deref(), Some("t1"));
    }

    #[test]
    fn prompts() {
        let head = "{\"type\":\"user\",\"message\":{\"content\":\"<command-name>/x</command-name>\"}}\n{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hello\\nworld\"}]}}\n";
        assert_eq!(first_prompt(head), "hello world");
        let only_cmd = "{\"type\":\"user\",\"message\":{\"content\":\"<command-name>/x</command-name>\"}}\n";
        assert_eq!(first_prompt(only_cmd), "/x");
    }
}
