//! Tokens as agents pay for them: OpenAI's o200k_base encoding, what
//! `max_tokens` counts in.

use cup_protocol::compact::TokenBudget;

/// The o200k_base tokens of `text` (special tokens read as plain text).
/// The encoder is built on first use (about 0.1 s) and kept.
pub fn count(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

/// A budget of `max` o200k tokens.
pub fn budget(max: usize) -> TokenBudget {
    TokenBudget { max, count }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_as_o200k() {
        assert_eq!(count(""), 0);
        // "hello world" is two tokens in o200k_base.
        assert_eq!(count("hello world"), 2);
        assert!(count("[e12] btn \"Save\" 10,20 80x24 [clk]\n") > 5);
    }
}
