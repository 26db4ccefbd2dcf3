//! cup's own client of the adb server's smart-socket protocol (the server
//! `adb start-server` runs on tcp:5037): each request is a 4-hex-digit
//! length and its text, answered `OKAY` or `FAIL` + a length and a
//! message. Host requests (`host:version`, `host:devices-l`,
//! `host-serial:<s>:features`, `host:connect:<addr>`) answer on the same
//! connection; a device command opens a fresh connection, switches it to
//! the device (`host:transport:<serial>`), then asks for a service:
//! `shell,v2,raw:<cmd>` (framed stdout, stderr and the exit code, where
//! the device has the `shell_v2` feature), `shell:<cmd>` (raw output, no
//! exit code, on older devices) or `exec:<cmd>` (raw bytes, for PNGs).
//!
//! Every call runs under a deadline; a device that hangs or vanishes makes
//! a one-line error, never a hung process. The server is started (`adb
//! start-server`) when nothing listens on its port.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The adb server's default port.
pub const DEFAULT_PORT: u16 = 5037;

/// Errors of the adb transport; each says what to do next.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdbError {
    /// No server answers and none could be started.
    #[error("{0}")]
    NoServer(String),
    /// The server refused a request (`FAIL` + its message).
    #[error("adb: {0}")]
    Refused(String),
    /// No device, or not the one asked for.
    #[error("{0}")]
    Device(String),
    /// The deadline passed.
    #[error("{0}")]
    Timeout(String),
    /// The connection broke or the answer is malformed.
    #[error("{0}")]
    Io(String),
}

/// What a shell command printed, and how it ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShellOutput {
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error (empty on devices without `shell_v2`, whose
    /// error output is mixed into `stdout`).
    pub stderr: Vec<u8>,
    /// Its exit code; `None` on devices without `shell_v2`.
    pub exit: Option<i32>,
}

impl ShellOutput {
    /// Standard output as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

/// One line of `host:devices-l`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceEntry {
    /// Its serial.
    pub serial: String,
    /// `device`, `offline`, `unauthorized`, `no permissions`, …
    pub state: String,
    /// `model:` from the line, when given.
    pub model: String,
}

/// What the server names a device without a serial (`append_transport`
/// in adb's `transport.cpp`): the only serial with spaces.
const NO_SERIAL: &str = "(no serial number)";

/// Parses `host:devices-l`'s answer: `%-22s %s` (serial, state), then
/// ` usb:…`, ` product:…`, ` model:…`, ` device:…`, ` transport_id:N`
/// (`append_transport` in adb's `transport.cpp`). The state is one word
/// (`device`, `offline`, `unauthorized`, `authorizing`, `connecting`,
/// `recovery`, `sideload`, `bootloader`, …) except `no permissions (…);
/// see […]` (`UsbNoPermissionsShortHelpText`).
pub fn parse_devices(text: &str) -> Vec<DeviceEntry> {
    text.lines()
        .filter_map(|line| {
            let (serial, rest) = match line.strip_prefix(NO_SERIAL) {
                Some(rest) => (NO_SERIAL.to_owned(), rest),
                None => {
                    let line = line.trim_start();
                    let end = line.find(char::is_whitespace)?;
                    (line[..end].to_owned(), &line[end..])
                }
            };
            let mut state = rest.split_whitespace().next()?.to_owned();
            // `no permissions (…)` is two words and more.
            if state == "no" {
                state = "no permissions".into();
            }
            let model = rest
                .split_whitespace()
                .find_map(|w| w.strip_prefix("model:"))
                .unwrap_or_default()
                .to_owned();
            Some(DeviceEntry {
                serial,
                state,
                model,
            })
        })
        .collect()
}

/// `arg` quoted for the device's `sh` (single quotes; a `'` inside
/// becomes `'\''`). Plain words stay as they are.
pub fn quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@%+,".contains(&b));
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// A client of one adb server.
#[derive(Debug, Clone)]
pub struct AdbServer {
    /// Where the server listens.
    pub addr: SocketAddr,
    /// Deadline of each call (a device command whole: connect, request,
    /// and reading its output).
    pub deadline: Duration,
    /// The `adb` program that starts the server when none listens; `None`:
    /// never start one.
    pub adb_program: Option<String>,
}

impl Default for AdbServer {
    fn default() -> Self {
        AdbServer::new(SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))
    }
}

/// Reads exactly `n` bytes.
async fn read_exact(stream: &mut TcpStream, n: usize) -> Result<Vec<u8>, AdbError> {
    let mut buf = vec![0; n];
    stream
        .read_exact(&mut buf)
        .await
        .map_err(|e| AdbError::Io(format!("the adb server closed the connection early ({e})")))?;
    Ok(buf)
}

/// A 4-hex-digit length, then that many bytes.
async fn read_hex_string(stream: &mut TcpStream) -> Result<Vec<u8>, AdbError> {
    let len = read_exact(stream, 4).await?;
    let len = std::str::from_utf8(&len)
        .ok()
        .and_then(|l| usize::from_str_radix(l, 16).ok())
        .ok_or_else(|| AdbError::Io("the adb server sent a malformed length".into()))?;
    read_exact(stream, len).await
}

impl AdbServer {
    /// A client of the server at `addr` (10 s deadline for host requests;
    /// device commands set their own).
    pub fn new(addr: SocketAddr) -> Self {
        AdbServer {
            addr,
            deadline: Duration::from_secs(10),
            adb_program: Some("adb".into()),
        }
    }

    /// The server the environment names: `ANDROID_ADB_SERVER_PORT`, else
    /// 5037, on loopback.
    pub fn from_env() -> Self {
        let port = std::env::var("ANDROID_ADB_SERVER_PORT")
            .ok()
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or(DEFAULT_PORT);
        AdbServer::new(SocketAddr::from(([127, 0, 0, 1], port)))
    }

    /// Runs `work` under `deadline`, naming `what` when it passes.
    async fn timed<T>(
        &self,
        deadline: Duration,
        what: &str,
        work: impl std::future::Future<Output = Result<T, AdbError>>,
    ) -> Result<T, AdbError> {
        tokio::time::timeout(deadline, work).await.map_err(|_| {
            AdbError::Timeout(format!(
                "{what} did not finish within {} ms; is the device awake and still connected (adb devices)?",
                deadline.as_millis()
            ))
        })?
    }

    /// Starts the server with `adb -P <port> start-server`.
    async fn start(&self) -> Result<(), AdbError> {
        let Some(program) = &self.adb_program else {
            return Err(AdbError::NoServer(format!(
                "no adb server listens on {}; start one with `adb start-server`",
                self.addr
            )));
        };
        tracing::info!(port = self.addr.port(), "starting the adb server");
        let run = tokio::process::Command::new(program)
            .args(["-P", &self.addr.port().to_string(), "start-server"])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .kill_on_drop(true)
            .output();
        let out = tokio::time::timeout(Duration::from_secs(15), run)
            .await
            .map_err(|_| AdbError::NoServer("`adb start-server` did not finish within 15 s".into()))?
            .map_err(|e| {
                AdbError::NoServer(format!(
                    "no adb server listens on {} and `{program}` cannot be run ({e}); install adb (Debian: apt install adb; else Android's platform-tools)",
                    self.addr
                ))
            })?;
        if !out.status.success() {
            return Err(AdbError::NoServer(format!(
                "`adb start-server` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )));
        }
        Ok(())
    }

    /// A connection to the server (started when nothing listens).
    async fn connect(&self) -> Result<TcpStream, AdbError> {
        let stream = match TcpStream::connect(self.addr).await {
            Ok(s) => s,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
                self.start().await?;
                TcpStream::connect(self.addr).await.map_err(|e| {
                    AdbError::NoServer(format!(
                        "the adb server was started but does not answer on {} ({e})",
                        self.addr
                    ))
                })?
            }
            Err(e) => {
                return Err(AdbError::NoServer(format!(
                    "cannot reach the adb server on {} ({e})",
                    self.addr
                )))
            }
        };
        // Small requests and answers: without this, Nagle and delayed
        // ACKs add ~40 ms to each.
        stream
            .set_nodelay(true)
            .map_err(|e| AdbError::Io(e.to_string()))?;
        Ok(stream)
    }

    /// Sends one request and reads `OKAY`, or turns `FAIL` into an error.
    async fn request(stream: &mut TcpStream, text: &str) -> Result<(), AdbError> {
        let framed = format!("{:04x}{text}", text.len());
        stream
            .write_all(framed.as_bytes())
            .await
            .map_err(|e| AdbError::Io(format!("cannot write to the adb server ({e})")))?;
        let status = read_exact(stream, 4).await?;
        match &status[..] {
            b"OKAY" => Ok(()),
            b"FAIL" => {
                let message = read_hex_string(stream).await?;
                // Some answers span lines (`device unauthorized.\nThis adb
                // server's $ADB_VENDOR_KEYS is not set\n…`, adb's
                // `acquire_one_transport`): one line here.
                let message = String::from_utf8_lossy(&message)
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect::<Vec<_>>()
                    .join(" ");
                Err(AdbError::Refused(message))
            }
            other => Err(AdbError::Io(format!(
                "the adb server answered {:?} to {text}",
                String::from_utf8_lossy(other)
            ))),
        }
    }

    /// A host request whose answer is a length-prefixed string.
    pub async fn host(&self, text: &str) -> Result<String, AdbError> {
        self.timed(self.deadline, text, async {
            let mut stream = self.connect().await?;
            Self::request(&mut stream, text).await?;
            let answer = read_hex_string(&mut stream).await?;
            Ok(String::from_utf8_lossy(&answer).into_owned())
        })
        .await
    }

    /// The server's protocol version (`host:version`).
    pub async fn version(&self) -> Result<u32, AdbError> {
        let text = self.host("host:version").await?;
        u32::from_str_radix(text.trim(), 16)
            .map_err(|_| AdbError::Io(format!("the adb server's version {text:?} is not a number")))
    }

    /// Asks the server to exit (`host:kill`, what `adb kill-server`
    /// sends).
    pub async fn kill(&self) -> Result<(), AdbError> {
        self.timed(self.deadline, "host:kill", async {
            let mut stream = TcpStream::connect(self.addr).await.map_err(|e| {
                AdbError::NoServer(format!("no adb server listens on {} ({e})", self.addr))
            })?;
            Self::request(&mut stream, "host:kill").await
        })
        .await
    }

    /// The devices the server knows (`host:devices-l`).
    pub async fn devices(&self) -> Result<Vec<DeviceEntry>, AdbError> {
        Ok(parse_devices(&self.host("host:devices-l").await?))
    }

    /// Asks the server to connect to a device over TCP (`adb connect`).
    /// The server answers OKAY and then a text either way (`connect_device`
    /// in adb's `client/transport_local.cpp`): `connected to H:P` or
    /// `already connected to H:P` on success; anything else (`failed to
    /// connect to …`, `failed to authenticate to …`, `failed to resolve
    /// host: …`, `bad port number …`, `empty address`, older servers'
    /// `unable to connect to …`) is a failure.
    pub async fn connect_device(&self, addr: &str) -> Result<String, AdbError> {
        let answer = self.host(&format!("host:connect:{addr}")).await?;
        let answer = answer.trim().to_owned();
        if !(answer.starts_with("connected to") || answer.starts_with("already connected to")) {
            return Err(AdbError::Device(format!("adb connect {addr}: {answer}")));
        }
        Ok(answer)
    }

    /// The device's features (`shell_v2`, `cmd`, …).
    pub async fn features(&self, serial: &str) -> Result<Vec<String>, AdbError> {
        let text = self.host(&format!("host-serial:{serial}:features")).await?;
        Ok(text
            .split(',')
            .map(|f| f.trim().to_owned())
            .filter(|f| !f.is_empty())
            .collect())
    }

    /// The serial to use: `wanted` when the server lists it as ready,
    /// else the only ready device; a one-line error otherwise.
    pub async fn choose(&self, wanted: Option<&str>) -> Result<DeviceEntry, AdbError> {
        let all = self.devices().await?;
        choose(&all, wanted)
    }

    /// A stream switched to `serial`'s `service`.
    async fn open(&self, serial: &str, service: &str) -> Result<TcpStream, AdbError> {
        let mut stream = self.connect().await?;
        Self::request(&mut stream, &format!("host:transport:{serial}"))
            .await
            .map_err(|e| match e {
                AdbError::Refused(m) => AdbError::Device(format!(
                    "device {serial}: {m}; list devices with `adb devices`"
                )),
                other => other,
            })?;
        Self::request(&mut stream, service).await?;
        Ok(stream)
    }

    /// Runs `cmd` in the device's shell. With `v2` (the device has
    /// `shell_v2`), stdout, stderr and the exit code come apart, and an
    /// output cut short by a vanished device is an error; without, the
    /// output is raw and the exit code unknown.
    pub async fn shell(
        &self,
        serial: &str,
        cmd: &str,
        v2: bool,
        deadline: Duration,
    ) -> Result<ShellOutput, AdbError> {
        let what = format!("`adb shell {cmd}` on {serial}");
        self.timed(deadline, &what, async {
            if v2 {
                let mut stream = self.open(serial, &format!("shell,v2,raw:{cmd}")).await?;
                read_v2(&mut stream, serial).await
            } else {
                let mut stream = self.open(serial, &format!("shell:{cmd}")).await?;
                let mut stdout = Vec::new();
                stream
                    .read_to_end(&mut stdout)
                    .await
                    .map_err(|e| AdbError::Io(format!("device {serial}: {e}")))?;
                Ok(ShellOutput {
                    stdout,
                    ..ShellOutput::default()
                })
            }
        })
        .await
    }

    /// Runs `cmd` with `exec:` and returns its raw output (binary safe:
    /// no terminal, no line-ending translation).
    pub async fn exec(
        &self,
        serial: &str,
        cmd: &str,
        deadline: Duration,
    ) -> Result<Vec<u8>, AdbError> {
        let what = format!("`adb exec-out {cmd}` on {serial}");
        self.timed(deadline, &what, async {
            let mut stream = self.open(serial, &format!("exec:{cmd}")).await?;
            let mut out = Vec::new();
            stream
                .read_to_end(&mut out)
                .await
                .map_err(|e| AdbError::Io(format!("device {serial}: {e}")))?;
            Ok(out)
        })
        .await
    }
}

/// Chooses a device from `all` (see [`AdbServer::choose`]).
pub fn choose(all: &[DeviceEntry], wanted: Option<&str>) -> Result<DeviceEntry, AdbError> {
    if let Some(serial) = wanted {
        let found = all.iter().find(|d| d.serial == serial).ok_or_else(|| {
            AdbError::Device(format!(
                "no device {serial} is connected (adb lists: {}); check the serial with `adb devices`",
                list(all)
            ))
        })?;
        return ready(found);
    }
    match all {
        [] => Err(AdbError::Device(
            "no Android device is connected; plug one in with USB debugging on, or run `adb connect HOST:PORT`".into(),
        )),
        [one] => ready(one),
        many => {
            let ready_ones: Vec<&DeviceEntry> = many.iter().filter(|d| d.state == "device").collect();
            match ready_ones[..] {
                [one] => Ok(one.clone()),
                _ => Err(AdbError::Device(format!(
                    "{} devices are connected ({}); choose one with --serial or ANDROID_SERIAL",
                    many.len(),
                    list(many)
                ))),
            }
        }
    }
}

fn list(all: &[DeviceEntry]) -> String {
    if all.is_empty() {
        return "none".into();
    }
    all.iter()
        .map(|d| format!("{} {}", d.serial, d.state))
        .collect::<Vec<_>>()
        .join(", ")
}

fn ready(d: &DeviceEntry) -> Result<DeviceEntry, AdbError> {
    match d.state.as_str() {
        "device" => Ok(d.clone()),
        "unauthorized" => Err(AdbError::Device(format!(
            "device {} has not allowed this computer yet; accept the USB debugging prompt on its screen",
            d.serial
        ))),
        "offline" => Err(AdbError::Device(format!(
            "device {} is offline; reconnect it (adb reconnect) or restart adbd on it",
            d.serial
        ))),
        // Passing states of a device being attached (adb's `transport.cpp`).
        "authorizing" | "connecting" => Err(AdbError::Device(format!(
            "device {} is still {}; retry in a few seconds (accept the USB debugging prompt if the phone shows one)",
            d.serial, d.state
        ))),
        "no permissions" => Err(AdbError::Device(format!(
            "this computer may not open device {} over USB (no permissions); add a udev rule for it (see `adb devices`) and reconnect it",
            d.serial
        ))),
        other => Err(AdbError::Device(format!(
            "device {} is {other}; see `adb devices` for what it needs",
            d.serial
        ))),
    }
}

/// Reads shell protocol v2 packets (`id u8, len u32le, payload`: 1
/// stdout, 2 stderr, 3 exit code; adb's `shell_protocol.h`) until the
/// exit packet, whose one-byte payload is the exit status (`0x80 | signal`
/// for a killed command; `Subprocess::WaitForExit` in adbd's
/// `shell_service.cpp`).
async fn read_v2(stream: &mut TcpStream, serial: &str) -> Result<ShellOutput, AdbError> {
    let mut out = ShellOutput::default();
    loop {
        let mut header = [0u8; 5];
        match stream.read_exact(&mut header).await {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Err(AdbError::Device(format!(
                    "device {serial} closed the command's stream before it ended (disconnected?); check `adb devices` and retry"
                )));
            }
            Err(e) => return Err(AdbError::Io(format!("device {serial}: {e}"))),
        }
        let [id, a, b, c, d] = header;
        let len = u32::from_le_bytes([a, b, c, d]) as usize;
        let mut payload = vec![0; len];
        stream.read_exact(&mut payload).await.map_err(|_| {
            AdbError::Device(format!(
                "device {serial} closed the command's stream before it ended (disconnected?); check `adb devices` and retry"
            ))
        })?;
        match id {
            1 => out.stdout.extend_from_slice(&payload),
            2 => out.stderr.extend_from_slice(&payload),
            3 => {
                out.exit = Some(payload.first().copied().map_or(0, i32::from));
                return Ok(out);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_keeps_words_and_protects_the_rest() {
        assert_eq!(quote("tap"), "tap");
        assert_eq!(
            quote("com.android.settings/.Settings"),
            "com.android.settings/.Settings"
        );
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("$(reboot)"), "'$(reboot)'");
    }

    #[test]
    fn devices_are_read_and_chosen_with_one_line_errors() {
        let all = parse_devices(
            "emulator-5554          device product:sdk model:Pixel_7 device:emu transport_id:1\nR58M   unauthorized usb:1-1 transport_id:2\n",
        );
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].model, "Pixel_7");
        assert_eq!(
            choose(&all, None).expect("one ready").serial,
            "emulator-5554"
        );
        let e = choose(&all, Some("R58M")).expect_err("unauthorized");
        assert!(
            e.to_string().contains("accept the USB debugging prompt"),
            "{e}"
        );
        let e = choose(&all, Some("nope")).expect_err("absent");
        assert!(e.to_string().contains("no device nope"), "{e}");
        let e = choose(&[], None).expect_err("none");
        assert!(
            e.to_string().starts_with("no Android device is connected"),
            "{e}"
        );
        // A device the user may not open, listed by serial-less USB
        // (adb's `transport.cpp` and `UsbNoPermissionsShortHelpText`).
        let noperm = parse_devices(
            "(no serial number)     no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-4 transport_id:3\n",
        );
        assert_eq!(noperm[0].serial, "(no serial number)");
        assert_eq!(noperm[0].state, "no permissions");
        assert!(choose(&noperm, None)
            .expect_err("no permissions")
            .to_string()
            .contains("udev"));
        let waiting = parse_devices("R58M   authorizing usb:1-1 transport_id:4\n");
        assert!(choose(&waiting, None)
            .expect_err("authorizing")
            .to_string()
            .contains("still authorizing"));
        let two = parse_devices("a device\nb device\n");
        let e = choose(&two, None).expect_err("two");
        assert!(e.to_string().contains("--serial or ANDROID_SERIAL"), "{e}");
    }
}
