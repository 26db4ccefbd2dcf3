//! The transport of [`super`]: one session-bus connection that
//! serves the scripts' answers (`org.cup.KWinReport.Report(token, json)`
//! at [`REPORT_PATH`]) and loads, runs and unloads each script through
//! `org.kde.kwin.Scripting`. Every exchange is bounded by [`TIMEOUT`];
//! a KWin that does not answer makes the call fail, never hang.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use cup::AdapterError;
use tokio::sync::oneshot;
use zbus::Connection;

use super::REPORT_PATH;

/// Longest one script exchange may take. KWin answers on its main
/// thread, which stalls while a new Wayland client that a desktop file
/// allows restricted interfaces connects: KWin reads that program's
/// executable twice to hash it (measured on Plasma 5.27: 229 MB read for
/// a 114 MB debug build of cup, over 2 s beside two busy processes).
pub const TIMEOUT: Duration = Duration::from_secs(5);

const KWIN: &str = "org.kde.KWin";

type Pending = Arc<Mutex<HashMap<String, oneshot::Sender<String>>>>;

/// The object the scripts call back.
struct Reports {
    pending: Pending,
}

#[zbus::interface(name = "org.cup.KWinReport")]
impl Reports {
    /// A script's answer for `token`.
    fn report(&self, token: String, json: String) {
        let waiting = self
            .pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&token);
        if let Some(tx) = waiting {
            let _ = tx.send(json);
        }
    }
}

/// KWin's scripting, with cup's answer object served on the same
/// connection.
#[derive(Debug, Clone)]
pub struct KWinScripts {
    conn: Connection,
    pending: Pending,
    next: Arc<AtomicU64>,
    dir: PathBuf,
}

impl std::fmt::Debug for Reports {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reports")
    }
}

fn unavailable(what: &str, e: impl std::fmt::Display) -> AdapterError {
    AdapterError::Unavailable(format!("KWin scripting: {what}: {e}"))
}

impl KWinScripts {
    /// Connects to the session bus at `address` and serves the answer
    /// object; scripts are written into `dir` (private: the caller's
    /// runtime directory).
    pub async fn connect(address: &str, dir: PathBuf) -> Result<KWinScripts, AdapterError> {
        let pending: Pending = Arc::default();
        let reports = Reports {
            pending: Arc::clone(&pending),
        };
        let build = zbus::connection::Builder::address(address)
            .map_err(|e| unavailable("the session bus address", e))?
            .method_timeout(TIMEOUT)
            .serve_at(REPORT_PATH, reports)
            .map_err(|e| unavailable("serving the answer object", e))?
            .build();
        let conn = tokio::time::timeout(TIMEOUT, build)
            .await
            .map_err(|_| {
                unavailable(
                    "connecting to the session bus",
                    format!("no answer within {} s", TIMEOUT.as_secs()),
                )
            })?
            .map_err(|e| unavailable("connecting to the session bus", e))?;
        Ok(KWinScripts {
            conn,
            pending,
            next: Arc::new(AtomicU64::new(1)),
            dir,
        })
    }

    /// Whether KWin is on this session bus.
    pub async fn present(&self) -> bool {
        crate::bus::name_has_owner(&self.conn, KWIN).await
    }

    /// The session-bus connection (KWin's other interfaces).
    pub fn connection(&self) -> &Connection {
        &self.conn
    }

    /// This connection's unique name (where the scripts answer).
    pub fn service(&self) -> String {
        self.conn
            .unique_name()
            .map(ToString::to_string)
            .unwrap_or_default()
    }

    /// Runs the script `make(service, token)` writes and returns what it
    /// reported.
    pub async fn run(
        &self,
        make: impl FnOnce(&str, &str) -> String,
    ) -> Result<String, AdapterError> {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let token = format!("cup-{}-{n}", std::process::id());
        let source = make(&self.service(), &token);
        let path = self.dir.join(format!("{token}.js"));
        std::fs::write(&path, source).map_err(|e| unavailable("writing the script", e))?;
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(token.clone(), tx);
        let result = self.load_and_wait(&path, &token, rx).await;
        self.pending
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&token);
        // Unloaded whatever happened (a script left loaded would run again
        // at KWin's next `start`).
        let _ = self
            .call(
                "/Scripting",
                "org.kde.kwin.Scripting",
                "unloadScript",
                &(token.as_str(),),
            )
            .await;
        let _ = std::fs::remove_file(&path);
        result
    }

    async fn load_and_wait(
        &self,
        path: &std::path::Path,
        token: &str,
        rx: oneshot::Receiver<String>,
    ) -> Result<String, AdapterError> {
        let file = path.to_string_lossy().into_owned();
        let reply = self
            .call(
                "/Scripting",
                "org.kde.kwin.Scripting",
                "loadScript",
                &(file.as_str(), token),
            )
            .await?;
        let id: i32 = reply
            .body()
            .deserialize()
            .map_err(|e| unavailable("reading loadScript's answer", e))?;
        if id < 0 {
            return Err(AdapterError::Platform(format!(
                "KWin refused the script {file} (loadScript answered {id})"
            )));
        }
        // Runs the scripts loaded and not yet running (this one).
        self.call("/Scripting", "org.kde.kwin.Scripting", "start", &())
            .await?;
        tokio::time::timeout(TIMEOUT, rx)
            .await
            .map_err(|_| {
                AdapterError::Unavailable(format!(
                    "KWin's script did not answer within {} s (is KWin busy or hung?)",
                    TIMEOUT.as_secs()
                ))
            })?
            .map_err(|_| AdapterError::Platform("the script's answer was lost".to_owned()))
    }

    async fn call<B>(
        &self,
        path: &str,
        interface: &str,
        method: &str,
        body: &B,
    ) -> Result<zbus::Message, AdapterError>
    where
        B: serde::Serialize + zbus::zvariant::DynamicType,
    {
        tokio::time::timeout(
            TIMEOUT,
            self.conn
                .call_method(Some(KWIN), path, Some(interface), method, body),
        )
        .await
        .map_err(|_| {
            unavailable(
                method,
                format!("KWin did not answer within {} s", TIMEOUT.as_secs()),
            )
        })?
        .map_err(|e| unavailable(method, e))
    }
}
