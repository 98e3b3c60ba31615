//! `claude_agent_sdk::constants` against the official TypeScript SDK's exported constants (the
//! repository's devDependency): a version bump that changes one fails here.

mod support;

use claude_agent_sdk::constants::*;
use serde_json::{json, Value};

#[test]
fn the_constants_are_the_official_sdks() {
    if !support::have_node() {
        return;
    }
    let sdk = support::official_sdk();
    let names = "HOOK_EVENTS EXIT_REASONS BUILTIN_TOOL_NAMES LEGACY_TOOL_NAME_ALIASES USAGE_LIMIT_ERROR_PREFIXES USAGE_TRANSITION_PREFIXES USAGE_WARNING_PREFIXES ORG_POLICY_LIMIT_PREFIXES SYSTEM_PROMPT_DYNAMIC_BOUNDARY";
    let script = format!(
    "const sdk = await import({:?}); process.stdout.write(JSON.stringify(Object.fromEntries({:?}.split(' ').map((k) => [k, sdk[k]]))))",
    sdk.to_str().unwrap(),
    names
  );
    let theirs: Value = serde_json::from_slice(&support::node_module("the official constants", &script)).unwrap();
    let aliases: serde_json::Map<String, Value> = LEGACY_TOOL_NAME_ALIASES
        .iter()
        .map(|(a, b)| (a.to_string(), json!(b)))
        .collect();
    let mine = json!({
      "HOOK_EVENTS": HOOK_EVENTS.as_slice(),
      "EXIT_REASONS": EXIT_REASONS.as_slice(),
      "BUILTIN_TOOL_NAMES": BUILTIN_TOOL_NAMES.as_slice(),
      "LEGACY_TOOL_NAME_ALIASES": aliases,
      "USAGE_LIMIT_ERROR_PREFIXES": USAGE_LIMIT_ERROR_PREFIXES.as_slice(),
      "USAGE_TRANSITION_PREFIXES": USAGE_TRANSITION_PREFIXES.as_slice(),
      "USAGE_WARNING_PREFIXES": USAGE_WARNING_PREFIXES,
      "ORG_POLICY_LIMIT_PREFIXES": ORG_POLICY_LIMIT_PREFIXES,
      "SYSTEM_PROMPT_DYNAMIC_BOUNDARY": SYSTEM_PROMPT_DYNAMIC_BOUNDARY,
    });
    for k in names.split(' ') {
        assert!(!theirs[k].is_null(), "the official exports {k}");
        assert_eq!(mine[k], theirs[k], "{k}");
    }
}
