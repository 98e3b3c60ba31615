//! A tool written in Rust, served to Claude from this process.
//!
//! ```sh
//! cargo run -p claude-agent-sdk --example tool_round_trip
//! ```
//!
//! Claude Code must be installed (`npm install @anthropic-ai/claude-code` in or above the
//! working directory, or `claude` on `PATH`) and logged in, or `ANTHROPIC_API_KEY` set.

use claude_agent_sdk::{query, tool, McpServer, Message, Options};
use futures::StreamExt;
use schemars::JsonSchema;
use serde::Deserialize;

/// The tool's arguments: their doc comments become the schema's descriptions, which the model
/// reads.
#[derive(Deserialize, JsonSchema)]
struct Weather {
    /// The city, e.g. "Paris".
    city: String,
    /// Celsius (default) or Fahrenheit.
    #[serde(default)]
    fahrenheit: bool,
}

#[tokio::main]
async fn main() -> Result<(), claude_agent_sdk::Error> {
    let weather = tool(
        "weather",
        "The current temperature in a city",
        |args: Weather| async move {
            let celsius = 21.0;
            let (value, unit) = if args.fahrenheit {
                (celsius * 9.0 / 5.0 + 32.0, "°F")
            } else {
                (celsius, "°C")
            };
            format!("It is {value}{unit} in {}.", args.city)
        },
    );
    let server = McpServer::builder("weather").tool(weather).build()?;

    let options = Options::builder()
        .mcp_server("weather", server)
        .allowed_tools(["mcp__weather__weather"])
        .max_turns(3)
        .build();
    let mut messages = query("How warm is it in Paris?", options)?;
    while let Some(message) = messages.next().await {
        match message? {
            Message::Assistant(a) => {
                for (_, name, input) in a.tool_uses() {
                    println!("→ {name} {input}");
                }
                if !a.text().is_empty() {
                    println!("{}", a.text());
                }
            }
            Message::Result(r) => println!("[{}; {} turns; ${:.4}]", r.subtype, r.num_turns, r.total_cost_usd),
            _ => {}
        }
    }
    Ok(())
}
