//! What every adapter's action planner says the same way. An adapter plans
//! a verb from its native facts (which native call, or input at which
//! point) in pure code; these are the refusals and checks that do not
//! depend on the platform, worded once:
//!
//! ```
//! use cup::plan::{need_value, number, refuse_disabled, PlanError};
//! use cup_protocol::Action;
//!
//! /// A made-up platform's plan: a slider's value set, or typed keys.
//! fn plan(enabled: bool, slider: bool, action: Action, value: Option<&str>) -> Result<String, PlanError> {
//!     refuse_disabled(enabled, action)?;
//!     let need_value = || need_value(action, value);
//!     match action {
//!         Action::SetValue if slider => Ok(format!("set {}", number(&need_value()?)?)),
//!         Action::SetValue | Action::Type => Ok(format!("type {}", need_value()?)),
//!         _ => Err(PlanError("not planned here".into())),
//!     }
//! }
//!
//! assert_eq!(plan(true, true, Action::SetValue, Some(" 42 ")), Ok("set 42".into()));
//! assert!(plan(false, false, Action::Type, Some("hi")).is_err());
//! ```

use cup_protocol::Action;

/// Why an action cannot be planned: one line that says what to do instead
/// (an adapter returns it as [`AdapterError::Unsupported`](crate::AdapterError::Unsupported)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlanError(pub String);

/// Refuses every action but `focus` on an element that is not `enabled`.
///
/// # Errors
///
/// `the element is disabled; enable it first (it may need another field
/// filled)`.
pub fn refuse_disabled(enabled: bool, action: Action) -> Result<(), PlanError> {
    if !enabled && action != Action::Focus {
        return Err(PlanError(
            "the element is disabled; enable it first (it may need another field filled)".into(),
        ));
    }
    Ok(())
}

/// The value `action` (`type`, `setvalue`) needs, as given.
///
/// # Errors
///
/// `'{action}' needs a value (the text to put in)` when there is none.
pub fn need_value(action: Action, value: Option<&str>) -> Result<String, PlanError> {
    value.map(str::to_owned).ok_or_else(|| {
        PlanError(format!(
            "'{}' needs a value (the text to put in)",
            action.name()
        ))
    })
}

/// `v` read as the number an element with a range (a slider, a stepper)
/// takes; spaces around it are ignored.
///
/// # Errors
///
/// `'{v}' is not a number; this element takes a number`.
pub fn number(v: &str) -> Result<f64, PlanError> {
    v.trim().parse().map_err(|_| {
        PlanError(format!(
            "'{v}' is not a number; this element takes a number"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_disabled_element_takes_focus_only() {
        assert_eq!(refuse_disabled(true, Action::Click), Ok(()));
        assert_eq!(refuse_disabled(false, Action::Focus), Ok(()));
        assert_eq!(
            refuse_disabled(false, Action::Click),
            Err(PlanError(
                "the element is disabled; enable it first (it may need another field filled)"
                    .into()
            ))
        );
    }

    #[test]
    fn a_value_is_taken_as_given_or_asked_for_by_the_verb() {
        assert_eq!(need_value(Action::Type, Some(" hi ")), Ok(" hi ".into()));
        assert_eq!(need_value(Action::Type, Some("")), Ok(String::new()));
        assert_eq!(
            need_value(Action::SetValue, None).map_err(|e| e.to_string()),
            Err("'setvalue' needs a value (the text to put in)".into())
        );
    }

    #[test]
    fn numbers_are_read_trimmed_or_refused_quoting_the_value() {
        assert_eq!(number(" 42 "), Ok(42.0));
        assert_eq!(number("-0.5"), Ok(-0.5));
        assert_eq!(
            number("lots"),
            Err(PlanError(
                "'lots' is not a number; this element takes a number".into()
            ))
        );
    }
}
