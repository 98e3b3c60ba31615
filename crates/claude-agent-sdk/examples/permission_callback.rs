//! Permission prompts answered by Rust code: read-only commands run, everything else is denied
//! with a reason the model reads.
//!
//! ```sh
//! cargo run -p claude-agent-sdk --example permission_callback
//! ```

use claude_agent_sdk::{query, Message, Options, PermissionResult};
use futures::StreamExt;

#[tokio::main]
async fn main() -> Result<(), claude_agent_sdk::Error> {
    let options = Options::builder()
        .allowed_tools(["Read", "Glob", "Grep"])
        .can_use_tool(|tool, input, ctx| async move {
            let command = input["command"].as_str().unwrap_or_default().to_string();
            let read_only = ["ls", "cat", "pwd", "git status", "git log"]
                .iter()
                .any(|c| command.starts_with(c));
            println!("? {tool} {input} (call {})", ctx.tool_use_id.as_deref().unwrap_or("-"));
            if tool == "Bash" && read_only {
                PermissionResult::allow()
            } else {
                PermissionResult::deny(format!("{tool} is not allowed here; only read-only shell commands are"))
            }
        })
        .max_turns(4)
        .build();
    let mut messages = query("List the files here, then delete README.md", options)?;
    while let Some(message) = messages.next().await {
        match message? {
            Message::Assistant(a) if !a.text().is_empty() => println!("{}", a.text()),
            Message::Result(r) => println!("[{}] {}", r.subtype, r.result.unwrap_or_default()),
            _ => {}
        }
    }
    Ok(())
}
