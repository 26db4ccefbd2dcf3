//! The host side of a fleet: per desktop a network namespace with a veth
//! pair to the host (10.231.N.2 inside, 10.231.N.1 on the host; no
//! forwarding, so namespaces cannot reach each other), a memory cgroup
//! (its usage is the desktop's memory: summed RSS counts shared pages
//! twice), and their removal. Made with `ip` and the cgroup file system;
//! needs root.

use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The addresses of desktop `index` (0-based; at most 250 desktops).
pub fn addresses(index: usize) -> Result<(Ipv4Addr, Ipv4Addr), String> {
    let n = u8::try_from(index)
        .ok()
        .filter(|n| *n < 250)
        .ok_or_else(|| format!("desktop {index}: at most 250 desktops per host"))?;
    Ok((Ipv4Addr::new(10, 231, n, 1), Ipv4Addr::new(10, 231, n, 2)))
}

/// Runs a command, failing with its stderr.
pub fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program).args(args).output().map_err(|e| {
        format!("{program}: {e} (is it installed? apt-get install iproute2 util-linux)")
    })?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// A network namespace joined to the host by a veth pair.
#[derive(Debug)]
pub struct Netns {
    pub name: String,
    host_link: String,
    pub host_ip: Ipv4Addr,
    pub ip: Ipv4Addr,
}

impl Netns {
    /// Creates namespace `name` for desktop `index`.
    pub fn create(name: &str, index: usize, tag: &str) -> Result<Netns, String> {
        let (host_ip, ip) = addresses(index)?;
        let host_link = format!("cfh{tag}{index}");
        let inner = format!("cfn{tag}{index}");
        run("ip", &["netns", "add", name])?;
        let ns = Netns {
            name: name.to_owned(),
            host_link: host_link.clone(),
            host_ip,
            ip,
        };
        let steps: [Vec<String>; 7] = [
            vec![
                "link".into(),
                "add".into(),
                host_link.clone(),
                "type".into(),
                "veth".into(),
                "peer".into(),
                "name".into(),
                inner.clone(),
            ],
            vec![
                "link".into(),
                "set".into(),
                inner.clone(),
                "netns".into(),
                name.into(),
            ],
            vec![
                "addr".into(),
                "add".into(),
                format!("{host_ip}/30"),
                "dev".into(),
                host_link.clone(),
            ],
            vec!["link".into(), "set".into(), host_link, "up".into()],
            vec![
                "-n".into(),
                name.into(),
                "addr".into(),
                "add".into(),
                format!("{ip}/30"),
                "dev".into(),
                inner.clone(),
            ],
            vec![
                "-n".into(),
                name.into(),
                "link".into(),
                "set".into(),
                inner,
                "up".into(),
            ],
            vec![
                "-n".into(),
                name.into(),
                "link".into(),
                "set".into(),
                "lo".into(),
                "up".into(),
            ],
        ];
        for step in steps {
            let args: Vec<&str> = step.iter().map(String::as_str).collect();
            run("ip", &args)?;
        }
        Ok(ns)
    }

    /// Removes the namespace and the host's end of the pair.
    pub fn remove(&self) -> Result<(), String> {
        let link = run("ip", &["link", "del", &self.host_link]);
        let ns = run("ip", &["netns", "del", &self.name]);
        link.and(ns).map(|_| ())
    }

    /// Whether the namespace still exists.
    pub fn exists(&self) -> bool {
        Path::new("/run/netns").join(&self.name).exists()
    }
}

/// A memory cgroup (v2, or v1's memory hierarchy) under this process's
/// own.
#[derive(Debug)]
pub struct Cgroup {
    pub dir: PathBuf,
    v2: bool,
}

/// This process's cgroup directory: (path, v2).
fn own_cgroup() -> Result<(PathBuf, bool), String> {
    let text = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
    let root = Path::new("/sys/fs/cgroup");
    if root.join("cgroup.controllers").exists() {
        let rel = text
            .lines()
            .find_map(|l| l.strip_prefix("0::"))
            .ok_or("no cgroup v2 line in /proc/self/cgroup")?;
        return Ok((root.join(rel.trim_start_matches('/')), true));
    }
    let rel = text
        .lines()
        .find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let _ = parts.next();
            let controllers = parts.next()?;
            let path = parts.next()?;
            controllers
                .split(',')
                .any(|c| c == "memory")
                .then_some(path)
        })
        .ok_or("no memory cgroup in /proc/self/cgroup (cgroup v1 without memory?)")?;
    Ok((root.join("memory").join(rel.trim_start_matches('/')), false))
}

impl Cgroup {
    /// Creates cgroup `name`.
    pub fn create(name: &str) -> Result<Cgroup, String> {
        let (own, v2) = own_cgroup()?;
        let dir = own.join(name);
        std::fs::create_dir(&dir).map_err(|e| format!("creating cgroup {}: {e}", dir.display()))?;
        Ok(Cgroup { dir, v2 })
    }

    /// The file a process writes its pid to, to join.
    pub fn procs_file(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }

    /// Memory in use now, in bytes.
    pub fn memory(&self) -> u64 {
        let file = if self.v2 {
            "memory.current"
        } else {
            "memory.usage_in_bytes"
        };
        std::fs::read_to_string(self.dir.join(file))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0)
    }

    /// The pids in it.
    pub fn pids(&self) -> Vec<u32> {
        std::fs::read_to_string(self.procs_file())
            .map(|s| s.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default()
    }

    /// Removes it (it must be empty).
    pub fn remove(&self) -> Result<(), String> {
        std::fs::remove_dir(&self.dir).map_err(|e| format!("removing {}: {e}", self.dir.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_desktop_has_its_own_subnet() {
        assert_eq!(
            addresses(0),
            Ok((Ipv4Addr::new(10, 231, 0, 1), Ipv4Addr::new(10, 231, 0, 2)))
        );
        assert_eq!(
            addresses(19).map(|a| a.1),
            Ok(Ipv4Addr::new(10, 231, 19, 2))
        );
        assert!(addresses(250).is_err());
        assert!(own_cgroup().is_ok());
    }
}
