//! How long, after a turn's `result`, a session whose callbacks the CLI may still call waits for
//! the CLI to report `idle` before it ends the run anyway (closes the CLI's stdin), as the
//! official SDK does: `CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS` in the child's environment, read
//! with the official's number parse, else 10 minutes; `0` waits for `idle` however long it takes.

use std::time::Duration;

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::options::QueryOptions;

/// The variable the official SDK reads from the environment it gives the CLI.
pub const RUN_END_CEILING_VAR: &str = "CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS";

/// The official's default: 600,000 ms.
pub const DEFAULT_RUN_END_CEILING: Duration = Duration::from_secs(600);

/// The longest timer the official sets (`setTimeout`'s limit, 2³¹ − 1 ms).
const TIMER_MAX_MS: u64 = i32::MAX as u64;

/// The ceiling for a query: [`RUN_END_CEILING_VAR`] as the child's environment will have it
/// (`env`'s value, else this process's when `env` is changes to it or not given).
pub fn run_end_ceiling_of(o: &QueryOptions) -> Option<Duration> {
    let given = o.env.as_ref().and_then(|env| env.get(RUN_END_CEILING_VAR));
    let value = match given {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::Bool(b)) => Some(b.to_string()),
        Some(_) => None,
        None if o.env.is_some() && o.env_is_whole => None,
        None => std::env::var(RUN_END_CEILING_VAR).ok(),
    };
    run_end_ceiling(value.as_deref())
}

/// The ceiling for a child environment's value of [`RUN_END_CEILING_VAR`] (`None`: unset).
/// `None` back: no ceiling (the value was `0`).
pub fn run_end_ceiling(value: Option<&str>) -> Option<Duration> {
    let ms = match value.and_then(official_int) {
        Some(ms) if ms >= 0.0 && ms.is_finite() => ms,
        _ => return Some(DEFAULT_RUN_END_CEILING),
    };
    if ms <= 0.0 {
        return None;
    }
    Some(Duration::from_millis((ms as u64).min(TIMER_MAX_MS)))
}

/// Whether a message is the main turn going on (an `assistant` or `stream_event` with a `null`
/// `parent_tool_use_id`), which puts the wait for `idle` back to its start, as the official does.
pub(crate) fn is_main_turn_message(line: &str) -> bool {
    #[derive(Deserialize)]
    struct Head<'a> {
        #[serde(rename = "type", borrow)]
        kind: std::borrow::Cow<'a, str>,
        /// Absent: `None`; `null`: `Some(None)`.
        #[serde(default, deserialize_with = "present")]
        parent_tool_use_id: Option<Option<IgnoredAny>>,
    }
    fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<IgnoredAny>>, D::Error> {
        Option::<IgnoredAny>::deserialize(d).map(Some)
    }
    serde_json::from_str::<Head>(line)
        .is_ok_and(|h| matches!(&*h.kind, "assistant" | "stream_event") && matches!(h.parent_tool_use_id, Some(None)))
}

/// The official's environment-number parse: the text trimmed, then an integer written with an
/// exponent (`3e2`), or with thousands separators (`1,000`, `1_000`, `1 000`), else `parseInt`'s
/// leading digits (`"250ms"` is 250). `None` where that gives `NaN`.
fn official_int(text: &str) -> Option<f64> {
    let t = text.trim_matches(is_js_space);
    if t.len() <= 32 {
        if is_exponent_form(t) {
            let n: f64 = t.parse().ok()?;
            return (n.fract() == 0.0).then_some(n);
        }
        if let Some(n) = thousands_form(t) {
            return Some(n);
        }
    }
    parse_int(t)
}

/// `^[+-]?(\d+(\.\d*)?|\.\d+)[eE][+-]?\d+$`
fn is_exponent_form(t: &str) -> bool {
    let Some((mantissa, exponent)) = t.split_once(['e', 'E']) else {
        return false;
    };
    let mantissa = mantissa.strip_prefix(['+', '-']).unwrap_or(mantissa);
    let exponent = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, frac)) => (!whole.is_empty() || !frac.is_empty()) && digits(whole) && digits(frac),
        None => !mantissa.is_empty() && digits(mantissa),
    };
    mantissa_ok && !exponent.is_empty() && digits(exponent)
}

/// `^[+-]?\d{1,3}([_,\u00A0\u202F ])\d{3}(?:\1\d{3})*$`, read as the number without separators.
fn thousands_form(t: &str) -> Option<f64> {
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let separator = body.chars().find(|c| !c.is_ascii_digit())?;
    if !matches!(separator, '_' | ',' | '\u{a0}' | '\u{202f}' | ' ') {
        return None;
    }
    let mut groups = body.split(separator);
    let first = groups.next()?;
    if first.is_empty() || first.len() > 3 || !first.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut digits = first.to_string();
    let mut rest = 0;
    for group in groups {
        if group.len() != 3 || !group.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.push_str(group);
        rest += 1;
    }
    if rest == 0 {
        return None;
    }
    let n: f64 = digits.parse().ok()?;
    Some(if negative { -n } else { n })
}

/// `parseInt(t, 10)` on trimmed text: a sign, then the leading decimal digits.
fn parse_int(t: &str) -> Option<f64> {
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let end = body.bytes().position(|b| !b.is_ascii_digit()).unwrap_or(body.len());
    if end == 0 {
        return None;
    }
    let n: f64 = body[..end].parse().ok()?;
    Some(if negative { -n } else { n })
}

/// What JavaScript's `String.prototype.trim` removes.
fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_value_as_the_official_does() {
        let ms = |v: Option<&str>| run_end_ceiling(v).map(|d| d.as_millis());
        assert_eq!(ms(None), Some(600_000));
        assert_eq!(ms(Some("300")), Some(300));
        assert_eq!(ms(Some("  300\n")), Some(300));
        assert_eq!(ms(Some("250ms")), Some(250));
        assert_eq!(ms(Some("3e2")), Some(300));
        assert_eq!(ms(Some("1.5e3")), Some(1500));
        assert_eq!(ms(Some("1.25e1")), Some(600_000), "not an integer: NaN, the default");
        assert_eq!(ms(Some("1,000")), Some(1000));
        assert_eq!(ms(Some("1_000_000")), Some(1_000_000));
        assert_eq!(
            ms(Some("1,000_000")),
            Some(1),
            "mixed separators: parseInt's leading digits"
        );
        assert_eq!(ms(Some("0")), None, "0: no ceiling");
        assert_eq!(ms(Some("-5")), Some(600_000), "negative: the default");
        assert_eq!(ms(Some("")), Some(600_000));
        assert_eq!(ms(Some("soon")), Some(600_000));
        assert_eq!(ms(Some("0x10")), None, "parseInt reads the 0");
        assert_eq!(
            ms(Some("99999999999")),
            Some(TIMER_MAX_MS as u128),
            "setTimeout's limit"
        );
    }

    #[test]
    fn the_value_is_the_one_the_child_gets() {
        let of = |json: &str| run_end_ceiling_of(&QueryOptions::from_json(json).unwrap()).map(|d| d.as_millis());
        assert_eq!(
            of(r#"{"env":{"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS":"250"}}"#),
            Some(250)
        );
        assert_eq!(of(r#"{"env":{"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS":0}}"#), None);
        assert_eq!(
            of(r#"{"env":{"CLAUDE_CODE_PRINT_BG_WAIT_CEILING_MS":null}}"#),
            Some(600_000)
        );
        assert_eq!(of(r#"{"env":{}}"#), Some(600_000), "a whole env without it: unset");
    }

    #[test]
    fn the_main_turn_is_an_assistant_or_stream_event_with_a_null_parent() {
        assert!(is_main_turn_message(
            r#"{"type":"assistant","message":{},"parent_tool_use_id":null}"#
        ));
        assert!(is_main_turn_message(
            r#"{"parent_tool_use_id":null,"type":"stream_event","event":{}}"#
        ));
        assert!(!is_main_turn_message(
            r#"{"type":"assistant","parent_tool_use_id":"toolu_1"}"#
        ));
        assert!(
            !is_main_turn_message(r#"{"type":"assistant","message":{}}"#),
            "absent is not null"
        );
        assert!(!is_main_turn_message(r#"{"type":"user","parent_tool_use_id":null}"#));
        assert!(
            !is_main_turn_message(r#"{"type":"assistant","parent_tool_use_id":null"#),
            "not JSON"
        );
    }
}
