//! The XSETTINGS wire format (the `_XSETTINGS_SETTINGS` property of the
//! settings manager's window), parsed without I/O: only what cup needs, the
//! integer window scale `Gdk/WindowScalingFactor`. That is the real device
//! scale of an X11 desktop; `Xft.dpi` is a font setting (it also folds in
//! the user's text scaling) and is not used for it.

/// Integer settings of an XSETTINGS blob, by name. Malformed input gives
/// what could be read before the error.
pub fn integers(blob: &[u8]) -> Vec<(String, i32)> {
    let mut out = Vec::new();
    let Some(&order) = blob.first() else {
        return out;
    };
    let big = order == 1;
    let u16_at = |i: usize| -> Option<u16> {
        let b: [u8; 2] = blob.get(i..i + 2)?.try_into().ok()?;
        Some(if big {
            u16::from_be_bytes(b)
        } else {
            u16::from_le_bytes(b)
        })
    };
    let u32_at = |i: usize| -> Option<u32> {
        let b: [u8; 4] = blob.get(i..i + 4)?.try_into().ok()?;
        Some(if big {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        })
    };
    let pad4 = |n: usize| n.div_ceil(4) * 4;
    let Some(count) = u32_at(8) else {
        return out;
    };
    let mut at = 12usize;
    for _ in 0..count {
        let (Some(&kind), Some(name_len)) = (blob.get(at), u16_at(at + 2)) else {
            break;
        };
        let name_len = usize::from(name_len);
        let Some(name) = blob.get(at + 4..at + 4 + name_len) else {
            break;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        at += 4 + pad4(name_len) + 4; // header, name, last-change serial
        match kind {
            0 => {
                let Some(v) = u32_at(at) else { break };
                out.push((name, i32::from_ne_bytes(v.to_ne_bytes())));
                at += 4;
            }
            1 => {
                let Some(len) = u32_at(at) else { break };
                let Ok(len) = usize::try_from(len) else { break };
                at += 4 + pad4(len);
            }
            2 => at += 8,
            _ => break,
        }
    }
    out
}

/// `Gdk/WindowScalingFactor` when set to 1 or more.
pub fn window_scale(blob: &[u8]) -> Option<f64> {
    integers(blob)
        .into_iter()
        .find(|(name, _)| name == "Gdk/WindowScalingFactor")
        .map(|(_, v)| v)
        .filter(|v| (1..=16).contains(v))
        .map(f64::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a little-endian blob with the given settings.
    fn blob(settings: &[(&str, Setting)]) -> Vec<u8> {
        let mut b = vec![0u8, 0, 0, 0];
        b.extend(7u32.to_le_bytes());
        b.extend(u32::try_from(settings.len()).unwrap_or(0).to_le_bytes());
        for (name, value) in settings {
            let kind = match value {
                Setting::Int(_) => 0u8,
                Setting::Str(_) => 1,
                Setting::Color => 2,
            };
            b.push(kind);
            b.push(0);
            b.extend(u16::try_from(name.len()).unwrap_or(0).to_le_bytes());
            b.extend(name.as_bytes());
            b.resize(b.len().div_ceil(4) * 4, 0);
            b.extend(1u32.to_le_bytes());
            match value {
                Setting::Int(v) => b.extend(v.to_le_bytes()),
                Setting::Str(s) => {
                    b.extend(u32::try_from(s.len()).unwrap_or(0).to_le_bytes());
                    b.extend(s.as_bytes());
                    b.resize(b.len().div_ceil(4) * 4, 0);
                }
                Setting::Color => b.extend([0u8; 8]),
            }
        }
        b
    }

    enum Setting {
        Int(i32),
        Str(&'static str),
        Color,
    }

    #[test]
    fn finds_the_window_scale_among_other_settings() {
        let b = blob(&[
            ("Net/ThemeName", Setting::Str("Adwaita")),
            ("Xft/DPI", Setting::Int(196_608)),
            ("Gtk/Color", Setting::Color),
            ("Gdk/WindowScalingFactor", Setting::Int(2)),
        ]);
        assert_eq!(window_scale(&b), Some(2.0));
        assert_eq!(integers(&b).len(), 2);
    }

    #[test]
    fn big_endian_and_absent_and_garbage() {
        let mut b = vec![1u8, 0, 0, 0];
        b.extend(1u32.to_be_bytes());
        b.extend(1u32.to_be_bytes());
        b.extend([0u8, 0]);
        let name = "Gdk/WindowScalingFactor";
        b.extend(u16::try_from(name.len()).unwrap_or(0).to_be_bytes());
        b.extend(name.as_bytes());
        b.resize(b.len().div_ceil(4) * 4, 0);
        b.extend(1u32.to_be_bytes());
        b.extend(3i32.to_be_bytes());
        assert_eq!(window_scale(&b), Some(3.0));

        assert_eq!(
            window_scale(&blob(&[("Xft/DPI", Setting::Int(98_304))])),
            None
        );
        assert_eq!(window_scale(&[]), None);
        assert_eq!(
            window_scale(&[0, 0, 0, 0, 1, 0, 0, 0, 200, 0, 0, 0, 0]),
            None
        );
        assert_eq!(
            window_scale(&blob(&[("Gdk/WindowScalingFactor", Setting::Int(0))])),
            None
        );
    }
}
