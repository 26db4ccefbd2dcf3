//! The AT-SPI calls that change things: actions, focus, text, values,
//! selection. Each has the connection's per-call deadline.

use atspi::zbus;
use zbus::zvariant::Value;

use crate::atspi_calls::{call, CallResult, Caller, ObjRef};

const ACTION: &str = "org.a11y.atspi.Action";
const COMPONENT: &str = "org.a11y.atspi.Component";
const EDITABLE: &str = "org.a11y.atspi.EditableText";
const TEXT: &str = "org.a11y.atspi.Text";
const VALUE: &str = "org.a11y.atspi.Value";
const SELECTION: &str = "org.a11y.atspi.Selection";

/// `Action.DoAction(index)`: `true` when the toolkit accepted it.
pub async fn do_action(conn: &impl Caller, obj: &ObjRef, index: usize) -> CallResult<bool> {
    let index = i32::try_from(index).unwrap_or(i32::MAX);
    call(conn, obj, ACTION, "DoAction", &(index,)).await
}

/// `Component.GrabFocus`.
pub async fn grab_focus(conn: &impl Caller, obj: &ObjRef) -> CallResult<bool> {
    call(conn, obj, COMPONENT, "GrabFocus", &()).await
}

/// `Component.ScrollTo(type)`; 4 = `ATSPI_SCROLL_ANYWHERE`.
pub async fn scroll_into_view(conn: &impl Caller, obj: &ObjRef) -> CallResult<bool> {
    call(conn, obj, COMPONENT, "ScrollTo", &(4u32,)).await
}

/// `Text.CharacterCount`.
pub async fn char_count(conn: &impl Caller, obj: &ObjRef) -> CallResult<i32> {
    crate::atspi_calls::property::<i32>(conn, obj, TEXT, "CharacterCount").await
}

/// Replaces the whole text: `EditableText.SetTextContents`, else
/// `DeleteText` + `InsertText`.
pub async fn set_text(conn: &impl Caller, obj: &ObjRef, text: &str) -> CallResult<bool> {
    if let Ok(true) = call::<_, bool>(conn, obj, EDITABLE, "SetTextContents", &(text,)).await {
        return Ok(true);
    }
    let count = char_count(conn, obj).await.unwrap_or(i32::MAX);
    let _: bool = call(conn, obj, EDITABLE, "DeleteText", &(0i32, count)).await?;
    let length = i32::try_from(text.chars().count()).unwrap_or(i32::MAX);
    call(conn, obj, EDITABLE, "InsertText", &(0i32, text, length)).await
}

/// Sets `Value.CurrentValue`.
pub async fn set_value(conn: &impl Caller, obj: &ObjRef, value: f64) -> CallResult<()> {
    call(
        conn,
        obj,
        "org.freedesktop.DBus.Properties",
        "Set",
        &(VALUE, "CurrentValue", Value::from(value)),
    )
    .await
}

/// `Accessible.GetIndexInParent`.
pub async fn index_in_parent(conn: &impl Caller, obj: &ObjRef) -> CallResult<i32> {
    call(
        conn,
        obj,
        "org.a11y.atspi.Accessible",
        "GetIndexInParent",
        &(),
    )
    .await
}

/// The parent (`Accessible.Parent` property).
pub async fn parent(conn: &impl Caller, obj: &ObjRef) -> CallResult<ObjRef> {
    let value: zbus::zvariant::OwnedValue = call(
        conn,
        obj,
        "org.freedesktop.DBus.Properties",
        "Get",
        &("org.a11y.atspi.Accessible", "Parent"),
    )
    .await?;
    let (bus, path): (String, zbus::zvariant::OwnedObjectPath) = value.try_into()?;
    Ok(ObjRef::new(bus, path.as_str()))
}

/// `Selection.ClearSelection` on `parent`.
pub async fn clear_selection(conn: &impl Caller, parent: &ObjRef) -> CallResult<bool> {
    call(conn, parent, SELECTION, "ClearSelection", &()).await
}

/// `Selection.SelectChild(index)` on `parent`.
pub async fn select_child(conn: &impl Caller, parent: &ObjRef, index: i32) -> CallResult<bool> {
    call(conn, parent, SELECTION, "SelectChild", &(index,)).await
}

/// Selects characters `start..end` of a text object: `Text.SetSelection`
/// of selection 0, else `Text.AddSelection` (GTK refuses to set a
/// selection that does not exist yet).
pub async fn select_text(
    conn: &impl Caller,
    obj: &ObjRef,
    start: i32,
    end: i32,
) -> CallResult<bool> {
    if let Ok(true) = call::<_, bool>(conn, obj, TEXT, "SetSelection", &(0i32, start, end)).await {
        return Ok(true);
    }
    call(conn, obj, TEXT, "AddSelection", &(start, end)).await
}
