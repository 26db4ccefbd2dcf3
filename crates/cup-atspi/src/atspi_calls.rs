//! The AT-SPI method calls the capture makes, as plain async functions on
//! one connection: no proxy objects per node, so hundreds of calls pipeline.

use std::collections::HashMap;

use atspi::zbus;
use atspi::{InterfaceSet, Role as AtspiRole, StateSet};
use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, OwnedObjectPath, OwnedValue};
use zbus::Connection;

use crate::facts::{Extents, RawValue};
use crate::wire::{BodyReader, RawBody};

/// A reference to an accessible: bus name and object path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjRef {
    /// Unique bus name of the application.
    pub bus: String,
    /// Object path.
    pub path: String,
}

impl ObjRef {
    /// The path AT-SPI uses for "no object".
    pub const NULL_PATH: &'static str = "/org/a11y/atspi/null";

    /// `bus` + `path`.
    pub fn new(bus: impl Into<String>, path: impl Into<String>) -> Self {
        ObjRef {
            bus: bus.into(),
            path: path.into(),
        }
    }

    /// `true` for the null object.
    pub fn is_null(&self) -> bool {
        self.path == Self::NULL_PATH || self.bus.is_empty()
    }

    /// `bus:path`, the form refs are kept in.
    pub fn key(&self) -> String {
        format!("{}:{}", self.bus, self.path)
    }

    /// Parses [`ObjRef::key`].
    pub fn from_key(key: &str) -> Option<ObjRef> {
        let (bus, path) = key.split_once(":/")?;
        Some(ObjRef::new(bus, format!("/{path}")))
    }
}

/// D-Bus `(so)`.
pub type WireRef = (String, OwnedObjectPath);

impl From<WireRef> for ObjRef {
    fn from((bus, path): WireRef) -> Self {
        ObjRef {
            bus,
            path: path.as_str().to_owned(),
        }
    }
}

/// A failed call (timeout, unknown method, dead peer).
pub type CallResult<T> = Result<T, zbus::Error>;

/// `true` when the call ran out of time (the app is busy or hung).
pub fn is_timeout(e: &zbus::Error) -> bool {
    matches!(e, zbus::Error::InputOutput(io) if io.kind() == std::io::ErrorKind::TimedOut)
        || e.to_string().to_ascii_lowercase().contains("timed out")
        || e.to_string().to_ascii_lowercase().contains("timeout")
}

/// `true` when the error says the object, interface or method does not
/// exist (as opposed to a failure of a call that exists).
pub fn is_missing_method(e: &zbus::Error) -> bool {
    match e {
        zbus::Error::MethodError(name, _, _) => matches!(
            name.as_str(),
            "org.freedesktop.DBus.Error.UnknownMethod"
                | "org.freedesktop.DBus.Error.UnknownObject"
                | "org.freedesktop.DBus.Error.UnknownInterface"
        ),
        zbus::Error::FDO(e) => matches!(
            **e,
            zbus::fdo::Error::UnknownMethod(_)
                | zbus::fdo::Error::UnknownObject(_)
                | zbus::fdo::Error::UnknownInterface(_)
        ),
        _ => false,
    }
}

/// Something that makes AT-SPI method calls: the `zbus` connection to the
/// bus, or a [`crate::peers::Peer`] (an application's own socket).
pub trait Caller: Sync {
    /// Calls `iface.method(body)` on `obj` and decodes the reply.
    fn call<B, R>(
        &self,
        obj: &ObjRef,
        iface: &str,
        method: &str,
        body: &B,
    ) -> impl std::future::Future<Output = CallResult<R>> + Send
    where
        B: serde::Serialize + DynamicType + Sync,
        R: DeserializeOwned + zbus::zvariant::Type + Send;

    /// Calls `iface.method()` (no arguments) on `obj` and returns the
    /// reply's body undecoded, for `wire::BodyReader`.
    fn call_raw(
        &self,
        obj: &ObjRef,
        iface: &str,
        method: &str,
    ) -> impl std::future::Future<Output = CallResult<RawBody>> + Send;
}

impl Caller for Connection {
    async fn call<B, R>(&self, obj: &ObjRef, iface: &str, method: &str, body: &B) -> CallResult<R>
    where
        B: serde::Serialize + DynamicType + Sync,
        R: DeserializeOwned + zbus::zvariant::Type + Send,
    {
        send(self, obj, iface, method, body)
            .await?
            .body()
            .deserialize::<R>()
    }

    async fn call_raw(&self, obj: &ObjRef, iface: &str, method: &str) -> CallResult<RawBody> {
        let reply = send(self, obj, iface, method, &()).await?;
        let body = reply.body();
        Ok(RawBody {
            big_endian: matches!(
                reply.primary_header().endian_sig(),
                zbus::message::EndianSig::Big
            ),
            signature: body.signature().to_string(),
            bytes: body.data().to_vec(),
        })
    }
}

/// `iface.method(body)` on `obj` through `zbus`: the reply message.
async fn send<B>(
    conn: &Connection,
    obj: &ObjRef,
    iface: &str,
    method: &str,
    body: &B,
) -> CallResult<zbus::Message>
where
    B: serde::Serialize + DynamicType + Sync,
{
    conn.call_method(
        Some(obj.bus.as_str()),
        obj.path.as_str(),
        Some(iface),
        method,
        body,
    )
    .await
}

/// Calls `iface.method(body)` on `obj` and decodes the reply.
pub async fn call<B, R>(
    conn: &impl Caller,
    obj: &ObjRef,
    iface: &str,
    method: &str,
    body: &B,
) -> CallResult<R>
where
    B: serde::Serialize + DynamicType + Sync,
    R: DeserializeOwned + zbus::zvariant::Type + Send,
{
    conn.call(obj, iface, method, body).await
}

const ACCESSIBLE: &str = "org.a11y.atspi.Accessible";

/// `Accessible.GetRole`.
pub async fn role(conn: &impl Caller, obj: &ObjRef) -> CallResult<AtspiRole> {
    let n: u32 = call(conn, obj, ACCESSIBLE, "GetRole", &()).await?;
    Ok(AtspiRole::try_from(n).unwrap_or(AtspiRole::Unknown))
}

/// `Accessible.GetState`.
pub async fn states(conn: &impl Caller, obj: &ObjRef) -> CallResult<StateSet> {
    let words: Vec<u32> = call(conn, obj, ACCESSIBLE, "GetState", &()).await?;
    Ok(state_set(&words))
}

/// Decodes the `au` state words, dropping bits this version does not know.
pub fn state_set(words: &[u32]) -> StateSet {
    let bits = words
        .iter()
        .take(2)
        .enumerate()
        .fold(0u64, |acc, (i, w)| acc | (u64::from(*w) << (32 * i)));
    StateSet::from_bits(bits).unwrap_or_else(|_| {
        (0..64)
            .map(|bit| 1u64 << bit)
            .filter(|mask| bits & mask != 0)
            .filter_map(|mask| StateSet::from_bits(mask).ok())
            .fold(StateSet::empty(), |acc, s| acc | s)
    })
}

/// `Accessible.GetInterfaces`.
pub async fn interfaces(conn: &impl Caller, obj: &ObjRef) -> CallResult<InterfaceSet> {
    call(conn, obj, ACCESSIBLE, "GetInterfaces", &()).await
}

/// `Accessible.GetChildren`.
pub async fn children(conn: &impl Caller, obj: &ObjRef) -> CallResult<Vec<ObjRef>> {
    let refs: Vec<WireRef> = call(conn, obj, ACCESSIBLE, "GetChildren", &()).await?;
    Ok(refs.into_iter().map(ObjRef::from).collect())
}

/// `Accessible.GetChildAtIndex`: one child, without asking for the rest
/// (a container that manages its descendants creates every child it is
/// asked for); `None` for the null object.
pub async fn child_at_index(
    conn: &impl Caller,
    obj: &ObjRef,
    index: i32,
) -> CallResult<Option<ObjRef>> {
    let r: WireRef = call(conn, obj, ACCESSIBLE, "GetChildAtIndex", &(index,)).await?;
    let r = ObjRef::from(r);
    Ok((!r.is_null()).then_some(r))
}

/// `Accessible.GetRelationSet`: each relation's type and targets.
pub async fn relation_set(conn: &impl Caller, obj: &ObjRef) -> CallResult<Vec<(u32, Vec<ObjRef>)>> {
    let set: Vec<(u32, Vec<WireRef>)> = call(conn, obj, ACCESSIBLE, "GetRelationSet", &()).await?;
    Ok(set
        .into_iter()
        .map(|(kind, targets)| (kind, targets.into_iter().map(ObjRef::from).collect()))
        .collect())
}

/// `Accessible.GetAttributes`.
pub async fn attributes(conn: &impl Caller, obj: &ObjRef) -> CallResult<HashMap<String, String>> {
    call(conn, obj, ACCESSIBLE, "GetAttributes", &()).await
}

/// All properties of one interface (`org.freedesktop.DBus.Properties.GetAll`).
pub async fn properties(
    conn: &impl Caller,
    obj: &ObjRef,
    iface: &str,
) -> CallResult<HashMap<String, OwnedValue>> {
    call(
        conn,
        obj,
        "org.freedesktop.DBus.Properties",
        "GetAll",
        &(iface,),
    )
    .await
}

/// The `Accessible` properties that matter: name, description, child count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccessibleProps {
    /// `Name`.
    pub name: String,
    /// `Description`.
    pub description: String,
    /// `ChildCount` (-1 when not read).
    pub child_count: i32,
}

/// `true` when `Properties.GetAll` is safe on the toolkit's objects: GTK
/// (3 through at-spi2-atk, 4 through GDBus) answers it. Chromium's bridge
/// aborts the browser on it (a property getter that writes no value), and
/// other toolkits are not known to implement it, so they are asked one
/// property at a time.
pub fn get_all_safe(toolkit: &str) -> bool {
    toolkit.eq_ignore_ascii_case("gtk")
}

/// Properties of `iface`: all of them with one `Properties.GetAll` where
/// `get_all` ([`get_all_safe`]), else `names` with a `Get` each, all in
/// flight at once. A property that cannot be read is missing.
async fn read_properties(
    conn: &impl Caller,
    obj: &ObjRef,
    iface: &str,
    names: &[&str],
    get_all: bool,
) -> CallResult<HashMap<String, OwnedValue>> {
    if get_all {
        return properties(conn, obj, iface).await;
    }
    let got = futures::future::join_all(names.iter().map(|name| async move {
        let value: CallResult<OwnedValue> = call(
            conn,
            obj,
            "org.freedesktop.DBus.Properties",
            "Get",
            &(iface, *name),
        )
        .await;
        (*name, value)
    }))
    .await;
    Ok(got
        .into_iter()
        .filter_map(|(name, value)| Some((name.to_owned(), value.ok()?)))
        .collect())
}

/// Takes property `name` of `props` as a `T`, or says it is missing.
fn take<T: TryFrom<OwnedValue>>(
    props: &mut HashMap<String, OwnedValue>,
    iface: &str,
    name: &str,
) -> CallResult<T> {
    props
        .remove(name)
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| zbus::Error::Failure(format!("{iface}.{name} could not be read")))
}

/// `Name`, `Description` and, when read with `GetAll`, `ChildCount` (-1
/// otherwise).
pub async fn accessible_props(
    conn: &impl Caller,
    obj: &ObjRef,
    get_all: bool,
) -> CallResult<AccessibleProps> {
    let mut props =
        read_properties(conn, obj, ACCESSIBLE, &["Name", "Description"], get_all).await?;
    Ok(AccessibleProps {
        name: take(&mut props, ACCESSIBLE, "Name")?,
        description: take(&mut props, ACCESSIBLE, "Description")?,
        child_count: take(&mut props, ACCESSIBLE, "ChildCount").unwrap_or(-1),
    })
}

/// One property (`org.freedesktop.DBus.Properties.Get`).
pub async fn property<T>(conn: &impl Caller, obj: &ObjRef, iface: &str, name: &str) -> CallResult<T>
where
    T: TryFrom<OwnedValue>,
    T::Error: Into<zbus::Error>,
{
    let value: OwnedValue = call(
        conn,
        obj,
        "org.freedesktop.DBus.Properties",
        "Get",
        &(iface, name),
    )
    .await?;
    T::try_from(value).map_err(Into::into)
}

/// `GetExtents` in screen coordinates.
pub const COORD_SCREEN: u32 = 0;
/// `GetExtents` relative to the top-level window. GTK 4 knows no screen
/// coordinates: asked for them, it answers window-relative ones anyway and
/// logs a warning on every call (a write to the app's stderr or journal).
pub const COORD_WINDOW: u32 = 1;

/// The coordinate type to ask for: [`COORD_WINDOW`] where the toolkit's
/// extents are window-relative anyway (GTK 4), else [`COORD_SCREEN`].
pub fn coord_type(window_relative: bool) -> u32 {
    if window_relative {
        COORD_WINDOW
    } else {
        COORD_SCREEN
    }
}

/// `Component.GetExtents(coord_type)`: [`COORD_SCREEN`] or
/// [`COORD_WINDOW`].
pub async fn extents(conn: &impl Caller, obj: &ObjRef, coord_type: u32) -> CallResult<Extents> {
    let (x, y, w, h): (i32, i32, i32, i32) = call(
        conn,
        obj,
        "org.a11y.atspi.Component",
        "GetExtents",
        &(coord_type,),
    )
    .await?;
    Ok(Extents { x, y, w, h })
}

/// `Component.GetAccessibleAtPoint(x, y, coord_type)`: the child at a
/// point; `None` when nothing is there. Asks for one object: what a
/// container that manages its descendants creates on demand.
pub async fn accessible_at_point(
    conn: &impl Caller,
    obj: &ObjRef,
    (x, y): (i32, i32),
    coord_type: u32,
) -> CallResult<Option<ObjRef>> {
    let r: WireRef = call(
        conn,
        obj,
        "org.a11y.atspi.Component",
        "GetAccessibleAtPoint",
        &(x, y, coord_type),
    )
    .await?;
    let r = ObjRef::from(r);
    Ok((!r.is_null()).then_some(r))
}

const TABLE: &str = "org.a11y.atspi.Table";

/// `Table.NRows` and `Table.NColumns`.
pub async fn table_size(conn: &impl Caller, obj: &ObjRef) -> CallResult<(i32, i32)> {
    tokio::try_join!(
        property::<i32>(conn, obj, TABLE, "NRows"),
        property::<i32>(conn, obj, TABLE, "NColumns")
    )
}

/// The row and column of the child at `index` (`Table.GetRowAtIndex`,
/// `Table.GetColumnAtIndex`); -1 for an index that is no cell (a header).
pub async fn table_position(
    conn: &impl Caller,
    obj: &ObjRef,
    index: i32,
) -> CallResult<(i32, i32)> {
    let at = (index,);
    tokio::try_join!(
        call::<_, i32>(conn, obj, TABLE, "GetRowAtIndex", &at),
        call::<_, i32>(conn, obj, TABLE, "GetColumnAtIndex", &at)
    )
}

/// `Table.GetAccessibleAt(row, column)`: one cell; `None` for the null
/// object.
pub async fn table_cell(
    conn: &impl Caller,
    obj: &ObjRef,
    row: i32,
    column: i32,
) -> CallResult<Option<ObjRef>> {
    let r: WireRef = call(conn, obj, TABLE, "GetAccessibleAt", &(row, column)).await?;
    let r = ObjRef::from(r);
    Ok((!r.is_null()).then_some(r))
}

/// `Table.GetColumnHeader(column)`; `None` for the null object.
pub async fn column_header(
    conn: &impl Caller,
    obj: &ObjRef,
    column: i32,
) -> CallResult<Option<ObjRef>> {
    let r: WireRef = call(conn, obj, TABLE, "GetColumnHeader", &(column,)).await?;
    let r = ObjRef::from(r);
    Ok((!r.is_null()).then_some(r))
}

/// `Action.GetActions`: the action names.
pub async fn action_names(conn: &impl Caller, obj: &ObjRef) -> CallResult<Vec<String>> {
    let actions: Vec<(String, String, String)> =
        call(conn, obj, "org.a11y.atspi.Action", "GetActions", &()).await?;
    let mut names: Vec<String> = actions.into_iter().map(|(name, _, _)| name).collect();
    // Chromium answers GetActions with empty names (its localized names are
    // empty), Gecko with ";;" in every field, while GetName(i) gives the
    // real ones ("press", "check", ...).
    let missing: Vec<usize> = (0..names.len())
        .filter(|&i| !names[i].chars().any(char::is_alphanumeric))
        .collect();
    if !missing.is_empty() {
        let got = futures::future::join_all(missing.iter().map(|&i| async move {
            let index = i32::try_from(i).unwrap_or(i32::MAX);
            call::<_, String>(conn, obj, "org.a11y.atspi.Action", "GetName", &(index,)).await
        }))
        .await;
        for (i, name) in missing.into_iter().zip(got) {
            names[i] = name.unwrap_or_default();
        }
    }
    Ok(names)
}

const VALUE: &str = "org.a11y.atspi.Value";

/// The `Value` interface. `Text` is optional (AT-SPI ≥ 2.46).
pub async fn value(conn: &impl Caller, obj: &ObjRef, get_all: bool) -> CallResult<RawValue> {
    let names = [
        "CurrentValue",
        "MinimumValue",
        "MaximumValue",
        "MinimumIncrement",
        "Text",
    ];
    let mut props = read_properties(conn, obj, VALUE, &names, get_all).await?;
    let mut number = |name| take::<f64>(&mut props, VALUE, name);
    let current = number("CurrentValue")?;
    let minimum = number("MinimumValue").unwrap_or(0.0);
    let maximum = number("MaximumValue").unwrap_or(0.0);
    let increment = number("MinimumIncrement").unwrap_or(0.0);
    let text: String = take(&mut props, VALUE, "Text").unwrap_or_default();
    Ok(RawValue {
        current,
        minimum,
        maximum,
        increment,
        text: (!text.is_empty()).then_some(text),
    })
}

/// `Text.GetText(0, max_chars)`. Gecko answers an end offset past the
/// text with nothing: an empty answer is read again up to the text's end
/// (`-1`), which is then shorter than `max_chars` (a longer text would
/// have answered the first call).
pub async fn text(conn: &impl Caller, obj: &ObjRef, max_chars: i32) -> CallResult<String> {
    const TEXT: &str = "org.a11y.atspi.Text";
    let got: String = call(conn, obj, TEXT, "GetText", &(0i32, max_chars)).await?;
    if !got.is_empty() {
        return Ok(without_offset_padding(got));
    }
    let got: String = call(conn, obj, TEXT, "GetText", &(0i32, -1i32)).await?;
    Ok(without_offset_padding(got))
}

/// `text` without the U+FEFF that Gecko puts after every character
/// beyond the Basic Multilingual Plane (an emoji, a CJK extension
/// ideograph), so that its character offsets count UTF-16 units: the
/// text as the page has it.
pub fn without_offset_padding(text: String) -> String {
    if !text.contains('\u{feff}') {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut after_astral = false;
    for c in text.chars() {
        if c == '\u{feff}' && after_astral {
            after_astral = false;
            continue;
        }
        after_astral = u32::from(c) > 0xFFFF;
        out.push(c);
    }
    out
}

/// `Application.ToolkitName` and `Version` of an application root.
pub async fn toolkit(conn: &impl Caller, app_root: &ObjRef) -> CallResult<(String, String)> {
    const APPLICATION: &str = "org.a11y.atspi.Application";
    let (name, version) = tokio::join!(
        property::<String>(conn, app_root, APPLICATION, "ToolkitName"),
        property::<String>(conn, app_root, APPLICATION, "Version"),
    );
    Ok((name?, version.unwrap_or_default()))
}

/// One item of `org.a11y.atspi.Cache.GetItems` (AT-SPI ≥ 2.x layout
/// `(so)(so)(so)iiassusau`).
#[derive(Debug, Clone, PartialEq)]
pub struct CacheEntry {
    /// The object.
    pub obj: ObjRef,
    /// Its parent.
    pub parent: ObjRef,
    /// Index in the parent.
    pub index: i32,
    /// Child count (-1 when unknown).
    pub child_count: i32,
    /// Interfaces.
    pub interfaces: InterfaceSet,
    /// Name.
    pub name: String,
    /// Role.
    pub role: AtspiRole,
    /// Description.
    pub description: String,
    /// States.
    pub states: StateSet,
}

/// The layout of `GetItems` this reader knows (AT-SPI 2.x, GTK 3 and 4).
const CACHE_ITEMS_SIGNATURE: &str = "a((so)(so)(so)iiassusau)";

/// `Cache.GetItems` of one application (one call for its whole tree), or
/// an error when the toolkit does not implement it. Decoded by hand: the
/// reply is the largest a capture gets (GTK 4's demo: 447 items), and
/// `zvariant` took about a tenth of cup's CPU on it while the app waited.
pub async fn cache_items(conn: &impl Caller, bus: &str) -> CallResult<Vec<CacheEntry>> {
    let cache = ObjRef::new(bus, "/org/a11y/atspi/cache");
    let body = conn
        .call_raw(&cache, "org.a11y.atspi.Cache", "GetItems")
        .await?;
    decode_cache_items(&body).map_err(|e| zbus::Error::Failure(format!("Cache.GetItems: {e}")))
}

/// The entries of a `GetItems` reply.
pub fn decode_cache_items(body: &RawBody) -> Result<Vec<CacheEntry>, crate::wire::WireError> {
    let signature = body.signature.as_str();
    let signature = signature
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .unwrap_or(signature);
    if signature != CACHE_ITEMS_SIGNATURE {
        return Err(crate::wire::WireError::Body(format!(
            "reply of signature '{}' where '{CACHE_ITEMS_SIGNATURE}' was expected",
            body.signature
        )));
    }
    let mut r = BodyReader::new(body);
    let mut out = Vec::new();
    let mut states = Vec::with_capacity(2);
    r.array(8, |r| {
        let obj = obj_ref(r)?;
        let _app = obj_ref(r)?;
        let parent = obj_ref(r)?;
        let index = r.i32()?;
        let child_count = r.i32()?;
        let mut interfaces = InterfaceSet::empty();
        r.array(4, |r| {
            if let Some(i) = interface_from_name(r.str()?) {
                interfaces.insert(i);
            }
            Ok(())
        })?;
        let name = r.str()?.to_owned();
        let role = AtspiRole::try_from(r.u32()?).unwrap_or(AtspiRole::Unknown);
        let description = r.str()?.to_owned();
        states.clear();
        r.array(4, |r| {
            states.push(r.u32()?);
            Ok(())
        })?;
        out.push(CacheEntry {
            obj,
            parent,
            index,
            child_count,
            interfaces,
            name,
            role,
            description,
            states: state_set(&states),
        });
        Ok(())
    })?;
    Ok(out)
}

/// An object reference `(so)`.
fn obj_ref(r: &mut BodyReader<'_>) -> Result<ObjRef, crate::wire::WireError> {
    r.align(8)?;
    let bus = r.str()?;
    let path = r.str()?;
    Ok(ObjRef::new(bus, path))
}

fn interface_from_name(name: &str) -> Option<atspi::Interface> {
    use atspi::Interface as I;
    Some(match name.strip_prefix("org.a11y.atspi.")? {
        "Accessible" => I::Accessible,
        "Action" => I::Action,
        "Application" => I::Application,
        "Cache" => I::Cache,
        "Collection" => I::Collection,
        "Component" => I::Component,
        "Document" => I::Document,
        "DeviceEventController" => I::DeviceEventController,
        "DeviceEventListener" => I::DeviceEventListener,
        "EditableText" => I::EditableText,
        "Hyperlink" => I::Hyperlink,
        "Hypertext" => I::Hypertext,
        "Image" => I::Image,
        "Registry" => I::Registry,
        "Selection" => I::Selection,
        "Socket" => I::Socket,
        "Table" => I::Table,
        "TableCell" => I::TableCell,
        "Text" => I::Text,
        "Value" => I::Value,
        _ => return None,
    })
}

/// The applications registered on the bus.
pub async fn applications(conn: &impl Caller) -> CallResult<Vec<ObjRef>> {
    children(
        conn,
        &ObjRef::new("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root"),
    )
    .await
}

/// Process id behind a bus name.
pub async fn pid_of(conn: &impl Caller, bus: &str) -> CallResult<u32> {
    let dbus = ObjRef::new("org.freedesktop.DBus", "/org/freedesktop/DBus");
    call(
        conn,
        &dbus,
        "org.freedesktop.DBus",
        "GetConnectionUnixProcessID",
        &(bus,),
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gecko_offset_padding_is_removed() {
        let padded = "Zoë ✓ 東京 👍\u{feff}🏽\u{feff} end".to_owned();
        assert_eq!(without_offset_padding(padded), "Zoë ✓ 東京 👍🏽 end");
        // A U+FEFF of the text itself (not after an astral character) stays.
        let own = "a\u{feff}b 😀\u{feff}\u{feff}".to_owned();
        assert_eq!(without_offset_padding(own), "a\u{feff}b 😀\u{feff}");
    }
    use zbus::zvariant::{self, serialized::Context};

    /// `GetItems`' layout, for `zvariant` to write the fixtures.
    type Item = (
        (String, OwnedObjectPath),
        (String, OwnedObjectPath),
        (String, OwnedObjectPath),
        i32,
        i32,
        Vec<String>,
        String,
        u32,
        String,
        Vec<u32>,
    );

    fn item(path: &str, parent: &str, index: i32, name: &str, role: u32, states: Vec<u32>) -> Item {
        let r = |p: &str| {
            (
                ":1.7".to_owned(),
                OwnedObjectPath::try_from(p).expect("path"),
            )
        };
        (
            r(path),
            r("/org/a11y/atspi/accessible/root"),
            r(parent),
            index,
            -1,
            vec![
                "org.a11y.atspi.Accessible".to_owned(),
                "org.a11y.atspi.Component".to_owned(),
                "org.example.Unknown".to_owned(),
            ],
            name.to_owned(),
            role,
            "déscription".to_owned(),
            states,
        )
    }

    fn body(items: &Vec<Item>, big: bool) -> RawBody {
        let endian = if big { zvariant::BE } else { zvariant::LE };
        let data = zvariant::to_bytes(Context::new_dbus(endian, 0), items).expect("encodes");
        RawBody {
            big_endian: big,
            signature: "a((so)(so)(so)iiassusau)".to_owned(),
            bytes: data.bytes().to_vec(),
        }
    }

    #[test]
    fn get_items_decodes_as_zvariant_encodes_it() {
        let items = vec![
            item("/a/1", "/a/0", 0, "Ünïcode name", 62, vec![1 << 7, 1]),
            item("/a/2", "/a/1", 3, "", 9999, vec![]),
            item("/a/3", "/a/1", 1, "x", 29, vec![0x8000_0000, 0x1]),
        ];
        for big in [false, true] {
            let got = decode_cache_items(&body(&items, big)).expect("decodes");
            assert_eq!(got.len(), 3);
            assert_eq!(got[0].obj, ObjRef::new(":1.7", "/a/1"));
            assert_eq!(got[0].parent, ObjRef::new(":1.7", "/a/0"));
            assert_eq!(got[0].name, "Ünïcode name");
            assert_eq!(got[0].description, "déscription");
            assert_eq!(got[0].role, AtspiRole::try_from(62u32).expect("reads"));
            assert_eq!(got[0].states, state_set(&[1 << 7, 1]));
            assert_eq!(
                got[0].interfaces,
                InterfaceSet::new(atspi::Interface::Accessible | atspi::Interface::Component)
            );
            assert_eq!((got[1].index, got[1].child_count), (3, -1));
            assert_eq!(got[1].role, AtspiRole::Unknown);
            assert_eq!(got[1].states, StateSet::empty());
            assert_eq!(got[2].states, state_set(&[0x8000_0000, 0x1]));
        }
        // Empty, and wrapped in a structure as `zbus` may report it.
        let mut empty = body(&Vec::new(), false);
        assert!(decode_cache_items(&empty).expect("decodes").is_empty());
        empty.signature = "(a((so)(so)(so)iiassusau))".to_owned();
        assert!(decode_cache_items(&empty).is_ok());
    }

    #[test]
    fn get_items_of_another_layout_or_cut_short_is_an_error() {
        let items = vec![item("/a/1", "/a/0", 0, "n", 62, vec![1])];
        let mut other = body(&items, false);
        other.signature = "a((so)(so)(so)a(so)assusau)".to_owned();
        let err = decode_cache_items(&other).expect_err("fails").to_string();
        assert!(err.contains("a((so)(so)(so)a(so)assusau)"), "{err}");
        let full = body(&items, false);
        for cut in [4, 20, full.bytes.len() - 1] {
            let short = RawBody {
                bytes: full.bytes[..cut].to_vec(),
                ..full.clone()
            };
            assert!(decode_cache_items(&short).is_err(), "cut at {cut}");
        }
    }
}
