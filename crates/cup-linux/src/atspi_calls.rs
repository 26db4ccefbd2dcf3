//! The AT-SPI method calls the capture makes, as plain async functions on
//! one connection: no proxy objects per node, so hundreds of calls pipeline.

use std::collections::HashMap;

use atspi::zbus;
use atspi::{InterfaceSet, Role as AtspiRole, StateSet};
use serde::de::DeserializeOwned;
use zbus::zvariant::{DynamicType, OwnedObjectPath, OwnedValue};
use zbus::Connection;

use crate::raw::{Extents, RawValue};

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
/// bus, or a [`crate::links::Peer`] (an application's own socket).
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
}

impl Caller for Connection {
    async fn call<B, R>(&self, obj: &ObjRef, iface: &str, method: &str, body: &B) -> CallResult<R>
    where
        B: serde::Serialize + DynamicType + Sync,
        R: DeserializeOwned + zbus::zvariant::Type + Send,
    {
        let reply = self
            .call_method(
                Some(obj.bus.as_str()),
                obj.path.as_str(),
                Some(iface),
                method,
                body,
            )
            .await?;
        reply.body().deserialize::<R>()
    }
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

/// `Action.GetActions`: the action names.
pub async fn action_names(conn: &impl Caller, obj: &ObjRef) -> CallResult<Vec<String>> {
    let actions: Vec<(String, String, String)> =
        call(conn, obj, "org.a11y.atspi.Action", "GetActions", &()).await?;
    let mut names: Vec<String> = actions.into_iter().map(|(name, _, _)| name).collect();
    // Chromium answers GetActions with empty names (its localized names are
    // empty) while GetName(i) gives the real ones ("press", ...).
    let missing: Vec<usize> = (0..names.len()).filter(|&i| names[i].is_empty()).collect();
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

/// `Text.GetText(0, max_chars)`.
pub async fn text(conn: &impl Caller, obj: &ObjRef, max_chars: i32) -> CallResult<String> {
    call(
        conn,
        obj,
        "org.a11y.atspi.Text",
        "GetText",
        &(0i32, max_chars),
    )
    .await
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

type WireCacheItem = (
    WireRef,
    WireRef,
    WireRef,
    i32,
    i32,
    Vec<String>,
    String,
    u32,
    String,
    Vec<u32>,
);

/// `Cache.GetItems` of one application (one call for its whole tree), or
/// an error when the toolkit does not implement it.
pub async fn cache_items(conn: &impl Caller, bus: &str) -> CallResult<Vec<CacheEntry>> {
    let cache = ObjRef::new(bus, "/org/a11y/atspi/cache");
    let items: Vec<WireCacheItem> =
        call(conn, &cache, "org.a11y.atspi.Cache", "GetItems", &()).await?;
    Ok(items
        .into_iter()
        .map(
            |(obj, _app, parent, index, child_count, ifaces, name, role, description, states)| {
                CacheEntry {
                    obj: obj.into(),
                    parent: parent.into(),
                    index,
                    child_count,
                    interfaces: ifaces
                        .iter()
                        .filter_map(|i| interface_from_name(i))
                        .collect(),
                    name,
                    role: AtspiRole::try_from(role).unwrap_or(AtspiRole::Unknown),
                    description,
                    states: state_set(&states),
                }
            },
        )
        .collect())
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
