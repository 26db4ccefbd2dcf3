//! The compact text format: a token-efficient rendering of CUP trees for LLM
//! context windows (`compact.md` of the spec, plus the decisions written
//! down in `docs/compact-format.md`).

pub mod budget;
pub mod line;
pub mod overview;
pub mod page;
pub mod parse;
pub mod prune;
pub mod render;
pub mod runs;
pub mod text;

pub use budget::{TokenBudget, MIN_TOKENS, TOKEN_CUT_MARK};
pub use line::{format_line, LineAttrs, LineFields, LineStyle};
pub use overview::render_overview;
pub use page::{page, render_page, Page, PageError, PageRequest};
pub use parse::{parse, Document, Header, Line, ParseError};
pub use prune::{prune, prune_folding, Clipped, Detail, Folded, Pruned};
pub use render::{render, render_folding, RenderOptions, MAX_OUTPUT_CHARS, TRUNCATION_MARK};
