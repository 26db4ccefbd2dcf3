//! A device of the tests' own behind Debian's real adb server: no Android
//! image or binder runs on this machine, so a phone is played by a small
//! adbd (the device side of adb's wire protocol: CNXN, OPEN, OKAY, WRTE,
//! CLSE; no AUTH) on loopback that answers each service from a script.
//! The adb server is the real one (`adb -P <port> nodaemon server`),
//! started here on a private port and home and stopped by its pid; it
//! adopts the device with `host:connect`.

#![allow(dead_code, clippy::unwrap_used)]

use std::collections::HashMap;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const CNXN: u32 = 0x4e58_4e43;
const OPEN: u32 = 0x4e45_504f;
const OKAY: u32 = 0x5941_4b4f;
const CLSE: u32 = 0x4553_4c43;
const WRTE: u32 = 0x4554_5257;
const VERSION: u32 = 0x0100_0001;
const MAX_DATA: u32 = 256 * 1024;

/// How the device answers one service.
#[derive(Debug, Clone)]
pub enum Reply {
    /// Output and an exit code (framed for `shell,v2`, raw otherwise).
    Out {
        stdout: Vec<u8>,
        stderr: Vec<u8>,
        exit: u8,
    },
    /// Accept the stream and never answer.
    Hang,
    /// Send these bytes, then drop the connection (the phone is unplugged).
    Vanish(Vec<u8>),
}

impl Reply {
    /// Text on stdout, exit code 0.
    pub fn text(s: &str) -> Reply {
        Reply::Out {
            stdout: s.as_bytes().to_vec(),
            stderr: Vec::new(),
            exit: 0,
        }
    }
}

/// The script: the command (the service without its `shell,v2,raw:`,
/// `shell:` or `exec:` prefix) → its reply.
pub type Script = Arc<dyn Fn(&str) -> Reply + Send + Sync>;

/// The device: where it listens and what it was asked.
pub struct FakeDevice {
    pub addr: SocketAddr,
    pub log: Arc<Mutex<Vec<String>>>,
}

impl FakeDevice {
    /// Starts the device with `script`, advertising `features`.
    pub async fn start(features: &str, script: Script) -> FakeDevice {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let banner = format!(
            "device::ro.product.name=fake;ro.product.model=FakePhone;ro.product.device=fake;features={features}"
        );
        let (log2, script2) = (log.clone(), script.clone());
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let (log, script, banner) = (log2.clone(), script2.clone(), banner.clone());
                tokio::spawn(async move {
                    let _ = serve(socket, &banner, log, script).await;
                });
            }
        });
        FakeDevice { addr, log }
    }

    /// The services asked for, in order.
    pub fn asked(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

async fn send(s: &mut TcpStream, cmd: u32, a0: u32, a1: u32, data: &[u8]) -> std::io::Result<()> {
    let sum: u32 = data.iter().map(|b| u32::from(*b)).sum();
    let mut h = Vec::with_capacity(24 + data.len());
    for v in [cmd, a0, a1, data.len() as u32, sum, cmd ^ 0xffff_ffff] {
        h.extend_from_slice(&v.to_le_bytes());
    }
    h.extend_from_slice(data);
    s.write_all(&h).await
}

/// What remains to send on one stream.
struct Stream {
    remote: u32,
    chunks: Vec<Vec<u8>>,
    vanish: bool,
}

async fn serve(
    mut s: TcpStream,
    banner: &str,
    log: Arc<Mutex<Vec<String>>>,
    script: Script,
) -> std::io::Result<()> {
    s.set_nodelay(true)?;
    let mut streams: HashMap<u32, Stream> = HashMap::new();
    let mut next_id = 1u32;
    loop {
        let mut h = [0u8; 24];
        s.read_exact(&mut h).await?;
        let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
        let (cmd, a0, a1, len) = (word(0), word(4), word(8), word(12) as usize);
        let mut data = vec![0u8; len];
        s.read_exact(&mut data).await?;
        match cmd {
            CNXN => send(&mut s, CNXN, VERSION, MAX_DATA, banner.as_bytes()).await?,
            OPEN => {
                let service = String::from_utf8_lossy(&data)
                    .trim_end_matches('\0')
                    .to_owned();
                log.lock().unwrap().push(service.clone());
                let (v2, command) = if let Some(c) = service.strip_prefix("shell,v2,raw:") {
                    (true, c)
                } else if let Some(c) = service.strip_prefix("shell:") {
                    (false, c)
                } else if let Some(c) = service.strip_prefix("exec:") {
                    (false, c)
                } else {
                    (false, service.as_str())
                };
                let id = next_id;
                next_id += 1;
                send(&mut s, OKAY, id, a0, &[]).await?;
                let reply = script(command);
                let (bytes, vanish) = match reply {
                    Reply::Hang => continue,
                    Reply::Vanish(b) => (b, true),
                    Reply::Out {
                        stdout,
                        stderr,
                        exit,
                    } => {
                        if v2 {
                            let mut framed = Vec::new();
                            for (kind, payload) in [(1u8, &stdout), (2u8, &stderr)] {
                                if !payload.is_empty() {
                                    framed.push(kind);
                                    framed.extend_from_slice(&(payload.len() as u32).to_le_bytes());
                                    framed.extend_from_slice(payload);
                                }
                            }
                            framed.extend_from_slice(&[3, 1, 0, 0, 0, exit]);
                            (framed, false)
                        } else {
                            let mut all = stdout;
                            all.extend_from_slice(&stderr);
                            (all, false)
                        }
                    }
                };
                let mut chunks: Vec<Vec<u8>> =
                    bytes.chunks(64 * 1024).map(<[u8]>::to_vec).collect();
                chunks.reverse();
                let mut st = Stream {
                    remote: a0,
                    chunks,
                    vanish,
                };
                match st.chunks.pop() {
                    Some(first) => {
                        send(&mut s, WRTE, id, a0, &first).await?;
                        streams.insert(id, st);
                    }
                    None if st.vanish => return Ok(()),
                    None => send(&mut s, CLSE, id, st.remote, &[]).await?,
                }
            }
            OKAY => {
                // The server took a write on our stream a1.
                if let Some(st) = streams.get_mut(&a1) {
                    match st.chunks.pop() {
                        Some(next) => send(&mut s, WRTE, a1, st.remote, &next).await?,
                        None if st.vanish => {
                            // Half the output, then the phone is gone.
                            return Ok(());
                        }
                        None => {
                            let remote = st.remote;
                            streams.remove(&a1);
                            send(&mut s, CLSE, a1, remote, &[]).await?;
                        }
                    }
                }
            }
            WRTE => send(&mut s, OKAY, a1, a0, &[]).await?,
            CLSE => {
                streams.remove(&a1);
            }
            _ => {}
        }
    }
}

/// The real adb server on a private port and home, stopped by its pid.
pub struct AdbServerProcess {
    pub port: u16,
    child: Child,
    home: std::path::PathBuf,
}

impl AdbServerProcess {
    /// Starts `adb -P <port> nodaemon server`.
    pub fn start() -> AdbServerProcess {
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let home = std::env::temp_dir().join(format!("cup-adb-home-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&home).unwrap();
        let child = Command::new("adb")
            .args(["-P", &port.to_string(), "nodaemon", "server"])
            .env("HOME", &home)
            .env("ANDROID_SDK_HOME", &home)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot run adb ({e}); install it: apt install adb (scripts/install-deps.sh does)")
            });
        let until = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < until,
                "the adb server did not listen on {port} within 10 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        AdbServerProcess { port, child, home }
    }

    /// cup's client of it, with no permission to start another.
    pub fn client(&self) -> cup_android::adb::AdbServer {
        let mut c = cup_android::adb::AdbServer::new(SocketAddr::from(([127, 0, 0, 1], self.port)));
        c.adb_program = None;
        c
    }

    /// Adopts the device at `addr` and waits until it is ready; its serial.
    pub async fn adopt(&self, addr: SocketAddr) -> String {
        let client = self.client();
        let serial = addr.to_string();
        client.connect_device(&serial).await.unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let devices = client.devices().await.unwrap();
            if devices
                .iter()
                .any(|d| d.serial == serial && d.state == "device")
            {
                return serial;
            }
            assert!(
                Instant::now() < until,
                "the adb server did not adopt {serial}: {devices:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for AdbServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.home);
    }
}
