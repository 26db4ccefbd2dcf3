//! Command-line definition.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// cup — the Computer Use Protocol: see and act on any UI as a compact,
/// schema-valid accessibility tree.
#[derive(Debug, Parser)]
#[command(name = "cup", version, about, long_about = None, after_help = EXIT_CODES)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

const EXIT_CODES: &str = "Exit codes: 0 success; 1 negative answer (validate found violations, find matched nothing); 2 bad usage or unreadable input.";

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print a CUP envelope (JSON) as compact text.
    Render(RenderArgs),
    /// Check a CUP envelope against the CUP JSON Schema; one line per violation.
    Validate(InputArg),
    /// Search a CUP envelope for elements.
    Find(FindArgs),
    /// Show more items of a container whose hint says "more items".
    Page(PageArgs),
}

/// An input file.
#[derive(Debug, Args)]
pub struct InputArg {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
}

/// `cup render`.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
    /// Pruning: compact (alias standard), full or minimal.
    #[arg(long, default_value = "compact")]
    pub detail: String,
    /// Cap on the output in characters, notice included (0 = no cap).
    #[arg(long, default_value_t = cup_protocol::compact::MAX_OUTPUT_CHARS)]
    pub max_chars: usize,
}

/// `cup find`.
#[derive(Debug, Args)]
pub struct FindArgs {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
    /// Free-form query, e.g. "the play button" or "search input".
    pub query: Option<String>,
    /// Role or role word, e.g. button, "search bar", input.
    #[arg(long)]
    pub role: Option<String>,
    /// Name to match.
    #[arg(long)]
    pub name: Option<String>,
    /// State the element must have, e.g. focused, checked, disabled.
    #[arg(long)]
    pub state: Option<String>,
    /// Maximum number of matches.
    #[arg(long, default_value_t = cup_protocol::search::DEFAULT_LIMIT)]
    pub limit: usize,
}

/// `cup page`.
#[derive(Debug, Args)]
pub struct PageArgs {
    /// Envelope JSON file, or - for standard input.
    pub file: PathBuf,
    /// Container id, e.g. e12.
    pub id: String,
    /// up, down, left or right.
    #[arg(long)]
    pub direction: Option<String>,
    /// Index of the first item (0-based).
    #[arg(long)]
    pub offset: Option<usize>,
    /// Items per page.
    #[arg(long)]
    pub limit: Option<usize>,
}
