//! Argument checks for tools whose input schema is plain JSON Schema, done where the arguments
//! arrive: in Rust, before anything crosses to JavaScript. The check only ever *accepts*: an
//! argument set it passes is one the JS validator (`lib/schema/json-schema.js`) passes too,
//! unchanged (no defaults to fill), so JS skips its own pass. Anything it cannot vouch for —
//! a failing value, or a keyword outside the subset below — goes to the JS validator, the one
//! place that words validation errors, so the model reads the same message either way.

use serde_json::Value;

/// Keywords this check enforces exactly as the JS validator does.
const ENFORCED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "nullable",
];
/// Keywords neither validator enforces (annotations), safe to ignore.
const IGNORED: &[&str] = &[
    "$schema",
    "$id",
    "title",
    "description",
    "examples",
    "format",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
];

/// A tool's input schema, analysed once: `None` when it uses anything the check does not cover.
#[derive(Debug)]
pub struct ArgsCheck(Value);

impl ArgsCheck {
    pub fn compile(schema: &Value) -> Option<Self> {
        supported(schema).then(|| Self(schema.clone()))
    }

    /// True only when the arguments certainly pass the JS validator unchanged.
    pub(crate) fn accepts(&self, args: &Value) -> bool {
        accepts(&self.0, args)
    }
}

fn supported(schema: &Value) -> bool {
    let Value::Object(m) = schema else {
        return schema == &Value::Bool(true);
    };
    m.iter().all(|(k, v)| match k.as_str() {
        "properties" => v.as_object().is_some_and(|p| p.values().all(supported)),
        "items" | "additionalProperties" => v.is_boolean() || supported(v),
        "exclusiveMinimum" | "exclusiveMaximum" => v.is_number(), // the draft-4 boolean form: not covered
        k if ENFORCED.contains(&k) || IGNORED.contains(&k) => true,
        _ => false,
    })
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.as_f64().is_some_and(|f| f.is_finite() && f.fract() == 0.0),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        _ => true, // unknown type names are not enforced by the JS validator either
    }
}

fn num(m: &serde_json::Map<String, Value>, k: &str) -> Option<f64> {
    m.get(k).and_then(Value::as_f64)
}

fn accepts(schema: &Value, v: &Value) -> bool {
    let Value::Object(m) = schema else {
        return schema == &Value::Bool(true);
    };
    if v.is_null() && m.get("nullable") == Some(&Value::Bool(true)) {
        return true;
    }
    match m.get("type") {
        Some(Value::String(t)) if !type_matches(t, v) => return false,
        Some(Value::Array(ts)) if !ts.iter().any(|t| t.as_str().is_some_and(|t| type_matches(t, v))) => return false,
        Some(Value::String(_)) | Some(Value::Array(_)) | None => {}
        Some(_) => return false,
    }
    // Exact JSON equality only (1 and 1.0 differ here though not in JS: a miss defers, never errs).
    if m.get("const").is_some_and(|c| c != v)
        || m.get("enum")
            .is_some_and(|e| !e.as_array().is_some_and(|e| e.contains(v)))
    {
        return false;
    }
    match v {
        Value::String(s) => {
            let len = s.chars().count() as f64;
            num(m, "minLength").is_none_or(|n| len >= n) && num(m, "maxLength").is_none_or(|n| len <= n)
        }
        Value::Number(n) => {
            let x = n.as_f64().unwrap_or(f64::NAN);
            num(m, "minimum").is_none_or(|b| x >= b)
                && num(m, "maximum").is_none_or(|b| x <= b)
                && num(m, "exclusiveMinimum").is_none_or(|b| x > b)
                && num(m, "exclusiveMaximum").is_none_or(|b| x < b)
        }
        Value::Array(items) => {
            let len = items.len() as f64;
            num(m, "minItems").is_none_or(|n| len >= n)
                && num(m, "maxItems").is_none_or(|n| len <= n)
                && m.get("items").is_none_or(|s| items.iter().all(|i| accepts(s, i)))
        }
        Value::Object(obj) => {
            let props = m.get("properties").and_then(Value::as_object);
            let required: Vec<&str> = m
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if required.iter().any(|k| !obj.contains_key(*k)) {
                return false;
            }
            for (key, sub) in props.into_iter().flatten() {
                match obj.get(key) {
                    Some(val) if !accepts(sub, val) => return false,
                    Some(_) => {}
                    // The JS validator would fill the default in: its value, not ours, reaches the handler.
                    None if sub.get("default").is_some() => return false,
                    None => {}
                }
            }
            let extra = obj.iter().filter(|(k, _)| !props.is_some_and(|p| p.contains_key(*k)));
            match m.get("additionalProperties") {
                Some(Value::Bool(false)) => extra.count() == 0,
                Some(s @ Value::Object(_)) => extra.map(|(_, val)| val).all(|val| accepts(s, val)),
                _ => true,
            }
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(schema: Value) -> ArgsCheck {
        ArgsCheck::compile(&schema).expect("supported")
    }

    #[test]
    fn accepts_what_certainly_passes() {
        let c = check(
            json!({"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":9},"s":{"type":"string","maxLength":3},"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["n"],"additionalProperties":false}),
        );
        assert!(c.accepts(&json!({"n":3,"s":"héé","tags":["a","b"]})));
        assert!(c.accepts(&json!({"n":3.0})));
    }

    #[test]
    fn defers_whatever_might_fail_or_change() {
        let c = check(
            json!({"type":"object","properties":{"n":{"type":"integer","minimum":1},"d":{"type":"number","default":2}},"required":["n"],"additionalProperties":false}),
        );
        for bad in [
            json!({}),
            json!({"n":0}),
            json!({"n":1.5}),
            json!({"n":"1"}),
            json!({"n":1,"x":true}),
            json!([1]),
        ] {
            assert!(!c.accepts(&bad), "{bad}");
        }
        assert!(!c.accepts(&json!({"n":1})), "a default to fill defers to JS");
        assert!(c.accepts(&json!({"n":1,"d":3})));
    }

    #[test]
    fn keywords_outside_the_subset_are_not_compiled() {
        for s in [
            json!({"type":"object","properties":{"s":{"type":"string","pattern":"^a"}}}),
            json!({"anyOf":[{"type":"string"}]}),
            json!({"$ref":"#/$defs/x"}),
            json!({"type":"number","exclusiveMinimum":true}),
        ] {
            assert!(ArgsCheck::compile(&s).is_none(), "{s}");
        }
        assert!(ArgsCheck::compile(
            &json!({"type":"object","description":"d","properties":{"f":{"type":"string","format":"email"}}})
        )
        .is_some());
    }
}
