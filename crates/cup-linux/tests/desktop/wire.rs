//! cup's lean D-Bus client (`cup_linux::internals`) against a real app's own
//! socket: the same answers as `zbus` over the bus, error replies that say
//! what is missing, and prompt failure once the app is gone.

use std::time::{Duration, Instant};

use atspi::zbus;
use cup_linux::internals::{calls, ObjRef, Peer, WireConn, WireError};

use crate::support::Desk;

#[tokio::test]
async fn direct_calls_match_the_bus_and_fail_fast_when_the_app_dies() {
    let desk = Desk::start();
    let app = desk.launch("gtk3-widget-factory", &[]);
    let address = desk
        .desktop()
        .a11y_bus
        .expect("the sandbox has an a11y bus");
    let bus = zbus::connection::Builder::address(address.as_str())
        .map(|b| b.method_timeout(Duration::from_secs(5)))
        .expect("valid address")
        .build()
        .await
        .expect("the a11y bus answers");
    let root = ObjRef::new(app.bus_name.clone(), "/org/a11y/atspi/accessible/root");
    let socket: String = calls::call(
        &bus,
        &root,
        "org.a11y.atspi.Application",
        "GetApplicationBusAddress",
        &(),
    )
    .await
    .expect("GTK 3 offers its own socket");
    let wire = WireConn::connect(&socket, false)
        .await
        .unwrap_or_else(|e| panic!("cannot connect to {socket}: {e}"));
    let direct = Peer::Direct(wire.clone());

    // The whole cache, both ways: the same items. (A freshly started app
    // may still add accessibles or move its focus between two reads, so
    // the two are compared until they agree, for at most 5 s.)
    let same = |a: &[calls::CacheEntry], b: &[calls::CacheEntry]| {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(a, b)| (&a.obj, a.role, &a.parent) == (&b.obj, b.role, &b.parent))
    };
    let started = Instant::now();
    let over_wire = loop {
        let over_bus = calls::cache_items(&bus, &app.bus_name)
            .await
            .expect("GetItems over the bus");
        let over_wire = calls::cache_items(&direct, &app.bus_name)
            .await
            .expect("GetItems over the app's socket");
        assert!(over_bus.len() > 100, "{} items", over_bus.len());
        if same(&over_bus, &over_wire) {
            break over_wire;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "GetItems differ: {} items over the bus, {} over the socket",
            over_bus.len(),
            over_wire.len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // Hundreds of calls in flight at once, each answered by serial.
    let objs: Vec<&ObjRef> = over_wire.iter().map(|i| &i.obj).collect();
    let roles = futures::future::join_all(objs.iter().map(|o| calls::role(&direct, o))).await;
    for (role, item) in roles.iter().zip(&over_wire) {
        assert_eq!(role.as_ref().ok(), Some(&item.role), "{}", item.obj.path);
    }
    // Properties.GetAll on GTK: name and child count like the cache's.
    let frame = over_wire
        .iter()
        .find(|i| i.role == atspi::Role::Frame)
        .expect("a frame");
    let props = calls::accessible_props(&direct, &frame.obj, true)
        .await
        .expect("GetAll(Accessible)");
    assert_eq!(props.name, frame.name);
    assert_eq!(props.child_count, frame.child_count);

    // An error reply names what is missing.
    let missing = calls::call::<_, u32>(
        &direct,
        &root,
        "org.a11y.atspi.Accessible",
        "NoSuchMethod",
        &(),
    )
    .await
    .expect_err("no such method");
    assert!(calls::is_missing_method(&missing), "{missing}");

    // The app dies: calls fail at once, not at a timeout.
    let killed = std::process::Command::new("kill")
        .args(["-KILL", &app.pid.to_string()])
        .status()
        .map(|s| s.success());
    assert_eq!(killed.ok(), Some(true), "kill failed");
    let started = Instant::now();
    loop {
        match wire
            .call(
                None,
                &root.path,
                "org.a11y.atspi.Accessible",
                "GetRole",
                "",
                &[],
            )
            .await
        {
            Err(WireError::Closed(_)) => break,
            other => assert!(
                started.elapsed() < Duration::from_secs(5),
                "still {other:?} 5 s after the app was killed"
            ),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(wire.is_closed());
}
