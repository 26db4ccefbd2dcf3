//! Min and median of a series of timings.

/// Min and median of timings in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    /// The fastest run.
    pub min: f64,
    /// The median run (mean of the two middle runs for an even count).
    pub median: f64,
}

/// Min and median of `times`; `None` when there are none.
pub fn summarize(times: &[f64]) -> Option<Summary> {
    let mut sorted: Vec<f64> = times.iter().copied().filter(|t| t.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    };
    Some(Summary {
        min: sorted[0],
        median,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_and_even_counts() {
        assert_eq!(
            summarize(&[3.0, 1.0, 2.0]),
            Some(Summary {
                min: 1.0,
                median: 2.0
            })
        );
        assert_eq!(
            summarize(&[4.0, 1.0, 3.0, 2.0]),
            Some(Summary {
                min: 1.0,
                median: 2.5
            })
        );
        assert_eq!(summarize(&[]), None);
    }
}
