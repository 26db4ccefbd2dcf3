//! Output size in tokens: OpenAI's o200k_base encoding (tiktoken-rs, its
//! vocabulary is compiled in; no network).

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

fn encoder() -> Result<&'static CoreBPE, String> {
    static O200K: OnceLock<Result<CoreBPE, String>> = OnceLock::new();
    O200K
        .get_or_init(|| tiktoken_rs::o200k_base().map_err(|e| format!("o200k_base: {e}")))
        .as_ref()
        .map_err(Clone::clone)
}

/// Number of o200k_base tokens of `text` (special-token text is counted as
/// ordinary text).
///
/// # Errors
///
/// When the encoder cannot be built (it never needs the network).
pub fn count(text: &str) -> Result<usize, String> {
    Ok(encoder()?.encode_ordinary(text).len())
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_tokens() {
        assert_eq!(super::count(""), Ok(0));
        let n = super::count("[e3] btn \"Submit order\" 10,20 80x24 [clk]").unwrap_or(0);
        assert!((5..40).contains(&n), "{n}");
    }
}
