//! Questions the CLI puts to the user through the SDK: MCP elicitations
//! ([`OptionsBuilder::on_elicitation`]) and user dialogs ([`OptionsBuilder::on_user_dialog`]).
//!
//! [`OptionsBuilder::on_elicitation`]: crate::OptionsBuilder::on_elicitation
//! [`OptionsBuilder::on_user_dialog`]: crate::OptionsBuilder::on_user_dialog

use std::future::Future;
use std::sync::Arc;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde::Deserialize;
use serde_json::{json, Value};

/// An MCP server asks the user for input (MCP `elicitation/create`), through the CLI.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct ElicitationRequest {
    /// The MCP server asking.
    #[serde(default, rename = "mcp_server_name")]
    pub server_name: String,
    /// What it asks.
    #[serde(default)]
    pub message: String,
    /// `form` (fill in [`requested_schema`](Self::requested_schema)) or `url` (visit
    /// [`url`](Self::url)).
    #[serde(default)]
    pub mode: Option<String>,
    /// For `url` mode: where to send the user.
    #[serde(default)]
    pub url: Option<String>,
    /// For `url` mode: the elicitation's id.
    #[serde(default)]
    pub elicitation_id: Option<String>,
    /// For `form` mode: the JSON Schema of the answer's content.
    #[serde(default)]
    pub requested_schema: Option<Value>,
    /// A title for the question, when the server gave one.
    #[serde(default)]
    pub title: Option<String>,
    /// The server's display name, when it has one.
    #[serde(default)]
    pub display_name: Option<String>,
    /// A longer description, when the server gave one.
    #[serde(default)]
    pub description: Option<String>,
    /// The request as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

/// The user's answer to an [`ElicitationRequest`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitationResult {
    /// The user answered: `content` matches the requested schema (`None` for `url` mode).
    Accept {
        /// The answer.
        content: Option<Value>,
    },
    /// The user said no.
    Decline,
    /// The user dismissed the question.
    Cancel,
}

impl ElicitationResult {
    /// Accept with this content.
    pub fn accept(content: Value) -> Self {
        ElicitationResult::Accept { content: Some(content) }
    }

    /// The wire form (`{"action": "accept" | "decline" | "cancel", "content"?}`).
    pub(crate) fn to_json(&self) -> Value {
        match self {
            ElicitationResult::Accept { content: Some(c) } => json!({ "action": "accept", "content": c }),
            ElicitationResult::Accept { content: None } => json!({ "action": "accept" }),
            ElicitationResult::Decline => json!({ "action": "decline" }),
            ElicitationResult::Cancel => json!({ "action": "cancel" }),
        }
    }
}

/// The CLI asks the user something through a dialog of a kind this SDK said it supports
/// ([`OptionsBuilder::on_user_dialog`](crate::OptionsBuilder::on_user_dialog)).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[non_exhaustive]
pub struct UserDialogRequest {
    /// The dialog's kind (one of those declared).
    #[serde(default)]
    pub dialog_kind: String,
    /// What the dialog shows; its shape depends on the kind.
    #[serde(default)]
    pub payload: Value,
    /// The tool call the dialog belongs to, if any.
    #[serde(default)]
    pub tool_use_id: Option<String>,
    /// The request as the CLI sent it.
    #[serde(skip)]
    pub raw: Value,
}

/// The elicitation callback, type-erased.
pub(crate) type ElicitationFn = Arc<dyn Fn(ElicitationRequest) -> BoxFuture<'static, ElicitationResult> + Send + Sync>;

/// The user-dialog callback, type-erased: the dialog's result, or `None` to refuse it.
pub(crate) type UserDialogFn = Arc<dyn Fn(UserDialogRequest) -> BoxFuture<'static, Option<Value>> + Send + Sync>;

pub(crate) fn elicitation_fn<F, Fut>(f: F) -> ElicitationFn
where
    F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = ElicitationResult> + Send + 'static,
{
    Arc::new(move |r| f(r).boxed())
}

pub(crate) fn user_dialog_fn<F, Fut>(f: F) -> UserDialogFn
where
    F: Fn(UserDialogRequest) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Option<Value>> + Send + 'static,
{
    Arc::new(move |r| f(r).boxed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_forms() {
        assert_eq!(
            ElicitationResult::accept(json!({"name": "x"})).to_json(),
            json!({"action":"accept","content":{"name":"x"}})
        );
        assert_eq!(ElicitationResult::Decline.to_json(), json!({"action":"decline"}));
        let r = ElicitationRequest::deserialize(
            json!({"mcp_server_name":"s","message":"m","mode":"form","requested_schema":{"type":"object"}}),
        )
        .unwrap();
        assert_eq!((r.server_name.as_str(), r.mode.as_deref()), ("s", Some("form")));
    }
}
