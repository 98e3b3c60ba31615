//! A conversation: user messages sent as a stream, one after each answer, with a control
//! request between turns.
//!
//! ```sh
//! cargo run -p claude-agent-sdk --example streaming_input
//! ```

use claude_agent_sdk::{query, Message, Options, Prompt, UserInput};
use futures::StreamExt;

#[tokio::main]
async fn main() -> Result<(), claude_agent_sdk::Error> {
    let questions = ["Name a prime number.", "Now a larger one.", "Which of the two is even?"];
    let (tx, rx) = futures::channel::mpsc::unbounded();
    tx.unbounded_send(UserInput::text(questions[0]))
        .expect("the receiver is alive");

    let mut conversation = query(Prompt::stream(rx), Options::builder().max_turns(1).build())?;
    let mut asked = 1;
    while let Some(message) = conversation.next().await {
        match message? {
            Message::Assistant(a) => println!("Claude: {}", a.text()),
            Message::Result(_) if asked < questions.len() => {
                if asked == 1 {
                    let models = conversation.supported_models().await?;
                    println!(
                        "(models available: {})",
                        models.iter().map(|m| m.value.as_str()).collect::<Vec<_>>().join(", ")
                    );
                }
                println!("You: {}", questions[asked]);
                tx.unbounded_send(UserInput::text(questions[asked]))
                    .expect("the receiver is alive");
                asked += 1;
            }
            // The last answer: end the input, and the query ends once the CLI is done.
            Message::Result(_) => tx.close_channel(),
            _ => {}
        }
    }
    Ok(())
}
