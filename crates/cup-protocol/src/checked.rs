//! Deserializers that refuse what the schema refuses but serde's types
//! alone would accept: id and version patterns, duplicate states/actions.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

/// `true` for `e` followed by one or more ASCII digits.
pub fn is_node_id(s: &str) -> bool {
    s.len() > 1 && s.starts_with('e') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

/// `true` for `major.minor.patch` with ASCII digits.
pub fn is_version(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

pub(crate) fn node_id<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if is_node_id(&s) {
        Ok(s)
    } else {
        Err(D::Error::custom(format!(
            "node id '{s}' must be 'e' followed by digits, e.g. e14"
        )))
    }
}

pub(crate) fn version<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if is_version(&s) {
        Ok(s)
    } else {
        Err(D::Error::custom(format!(
            "version '{s}' must be major.minor.patch, e.g. 0.1.0"
        )))
    }
}

pub(crate) fn unique<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + PartialEq + std::fmt::Display,
{
    let items = Vec::<T>::deserialize(d)?;
    for (i, item) in items.iter().enumerate() {
        if items[..i].contains(item) {
            return Err(D::Error::custom(format!(
                "'{item}' is listed twice; states and actions must be unique"
            )));
        }
    }
    Ok(items)
}
