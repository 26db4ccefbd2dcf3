//! Real web apps and documents served on this machine, nothing from the
//! internet: the web corpus the tests and the benchmark read.
//!
//! - Python's "Built-in Types" page (Debian's `python3-doc`, a large Sphinx
//!   page) and rustdoc's `Vec` page (Debian's `rust-doc`), served from
//!   `/usr/share/doc` by [`serve_dir`];
//! - the Django admin (Django 5.2 from PyPI, in the venv
//!   `scripts/install-webapps.sh` makes): a project written here, with a
//!   changelist of 100 orders, its filter sidebar and an order's change
//!   form ([`DjangoAdmin`]);
//! - JupyterLab 4.6 (PyPI, the same venv) with a notebook open
//!   ([`JupyterLab`]).
//!
//! Each server is started here and stopped by its PID (on drop).

use std::io::{Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Why a web app could not be served. The message says what to do next.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct WebAppError(pub String);

/// What installs the web apps.
pub const INSTALL_HINT: &str = "run scripts/install-webapps.sh (as root) first";

/// The venv `scripts/install-webapps.sh` makes, under the workspace's
/// `target` folder `target_dir`.
pub fn venv_in(target_dir: &Path) -> PathBuf {
    target_dir.join("webapps-venv")
}

/// Where Debian's `python3-doc` puts the standard types page.
pub const PYTHON_DOC_PAGE: &str = "python3-doc/html/library/stdtypes.html";
/// Where Debian's `rust-doc` puts `Vec`'s page.
pub const RUST_DOC_PAGE: &str = "rust-doc/html/std/vec/struct.Vec.html";
/// The folder both live under.
pub const DOC_ROOT: &str = "/usr/share/doc";

/// Checks that the two documentation pages are installed.
///
/// # Errors
///
/// One line naming the Debian package to install.
pub fn check_docs() -> Result<(), WebAppError> {
    for (page, package) in [
        (PYTHON_DOC_PAGE, "python3-doc"),
        (RUST_DOC_PAGE, "rust-doc"),
    ] {
        if !Path::new(DOC_ROOT).join(page).is_file() {
            return Err(WebAppError(format!(
                "{DOC_ROOT}/{page} is missing: apt-get install {package} (scripts/install-webapps.sh does)"
            )));
        }
    }
    Ok(())
}

/// Serves the files under `root` on a loopback port, for the life of the
/// process (a thread per connection; paths with `..` are refused).
///
/// # Errors
///
/// When no port can be bound.
pub fn serve_dir(root: PathBuf) -> Result<u16, WebAppError> {
    serve_dir_inner(root).map_err(WebAppError)
}

fn serve_dir_inner(root: PathBuf) -> Result<u16, String> {
    let listener =
        TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind a port: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("no local address: {e}"))?
        .port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let root = root.clone();
            std::thread::spawn(move || answer(stream, &root));
        }
    });
    Ok(port)
}

fn answer(mut stream: TcpStream, root: &Path) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut buf = [0u8; 8192];
    let n = stream.read(&mut buf).unwrap_or(0);
    let head = String::from_utf8_lossy(&buf[..n]);
    let target = head.split_whitespace().nth(1).unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let rel = Path::new(path.trim_start_matches('/'));
    let safe = rel.components().all(|c| matches!(c, Component::Normal(_)));
    let file = root.join(rel);
    let body = if safe {
        std::fs::read(&file).ok()
    } else {
        None
    };
    let _ = match body {
        Some(body) => {
            let kind = content_type(&file);
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )
            .and_then(|()| stream.write_all(&body))
        }
        None => write!(
            stream,
            "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\nConnection: close\r\n\r\nnot found"
        ),
    };
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css",
        "js" => "text/javascript",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "json" => "application/json",
        _ => "application/octet-stream",
    }
}

/// A free loopback port (bound, then released for the server to take).
fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot bind a port: {e}"))?;
    l.local_addr()
        .map(|a| a.port())
        .map_err(|e| format!("no local address: {e}"))
}

/// Waits until `GET path` on `port` answers `200`, or `child` exits, or
/// `timeout` passes.
fn wait_http(
    child: &mut Child,
    port: u16,
    path: &str,
    timeout: Duration,
    what: &str,
) -> Result<(), String> {
    let start = Instant::now();
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("{what} exited ({status}) before it served {path}"));
        }
        if http_status(port, path) == Some(200) {
            return Ok(());
        }
        if start.elapsed() > timeout {
            return Err(format!(
                "{what} did not serve {path} within {} s",
                timeout.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The status code of `GET path` on the loopback `port`, if it answers.
fn http_status(port: u16, path: &str) -> Option<u16> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n").ok()?;
    let mut head = [0u8; 32];
    let n = s.read(&mut head).ok()?;
    String::from_utf8_lossy(&head[..n])
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Stops `child` by its PID: SIGTERM, then SIGKILL after 10 s.
fn stop(child: &mut Child) {
    if let Ok(Some(_)) = child.try_wait() {
        return;
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(10) {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn python(venv: &Path) -> Result<PathBuf, String> {
    let python = venv.join("bin").join("python");
    if python.is_file() {
        Ok(python)
    } else {
        Err(format!(
            "{} is missing (Django and JupyterLab): {INSTALL_HINT}",
            python.display()
        ))
    }
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd
        .output()
        .map_err(|e| format!("{what}: cannot run: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The Django admin of a small shop: 100 orders of 10 customers.
#[derive(Debug)]
pub struct DjangoAdmin {
    child: Child,
    /// Its loopback port.
    pub port: u16,
    /// Its project folder.
    dir: PathBuf,
}

/// The admin's user and password (a private loopback server).
pub const DJANGO_USER: (&str, &str) = ("admin", "cup-bench-admin");

/// The page script that fills the admin's login form with `user` and
/// `password` and sends it (run on its login page).
pub fn django_login_script(user: &str, password: &str) -> String {
    let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
    format!(
        "document.querySelector('#id_username').value = {}; \
         document.querySelector('#id_password').value = {}; \
         document.querySelector('#login-form').submit(); true",
        quote(user),
        quote(password)
    )
}

const DJANGO_FILES: &[(&str, &str)] = &[
    (
        "manage.py",
        "import os, sys\n\
         os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'site_cfg.settings')\n\
         from django.core.management import execute_from_command_line\n\
         execute_from_command_line(sys.argv)\n",
    ),
    ("site_cfg/__init__.py", ""),
    (
        "site_cfg/settings.py",
        "from pathlib import Path\n\
         BASE_DIR = Path(__file__).resolve().parent.parent\n\
         SECRET_KEY = 'cup-bench-only-not-secret'\n\
         DEBUG = True\n\
         ALLOWED_HOSTS = ['127.0.0.1', 'localhost']\n\
         INSTALLED_APPS = ['django.contrib.admin', 'django.contrib.auth', 'django.contrib.contenttypes',\n\
         \x20   'django.contrib.sessions', 'django.contrib.messages', 'django.contrib.staticfiles', 'shop']\n\
         MIDDLEWARE = ['django.middleware.security.SecurityMiddleware',\n\
         \x20   'django.contrib.sessions.middleware.SessionMiddleware', 'django.middleware.common.CommonMiddleware',\n\
         \x20   'django.middleware.csrf.CsrfViewMiddleware', 'django.contrib.auth.middleware.AuthenticationMiddleware',\n\
         \x20   'django.contrib.messages.middleware.MessageMiddleware']\n\
         ROOT_URLCONF = 'site_cfg.urls'\n\
         TEMPLATES = [{'BACKEND': 'django.template.backends.django.DjangoTemplates', 'DIRS': [], 'APP_DIRS': True,\n\
         \x20   'OPTIONS': {'context_processors': ['django.template.context_processors.request',\n\
         \x20   'django.contrib.auth.context_processors.auth', 'django.contrib.messages.context_processors.messages']}}]\n\
         DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3', 'NAME': BASE_DIR / 'db.sqlite3'}}\n\
         STATIC_URL = 'static/'\n\
         USE_TZ = True\n\
         DEFAULT_AUTO_FIELD = 'django.db.models.BigAutoField'\n",
    ),
    (
        "site_cfg/urls.py",
        "from django.contrib import admin\n\
         from django.urls import path\n\
         urlpatterns = [path('admin/', admin.site.urls)]\n",
    ),
    ("shop/__init__.py", ""),
    ("shop/migrations/__init__.py", ""),
    (
        "shop/models.py",
        "from django.db import models\n\
         class Customer(models.Model):\n\
         \x20   name = models.CharField(max_length=100)\n\
         \x20   email = models.EmailField()\n\
         \x20   def __str__(self):\n\
         \x20       return self.name\n\
         class Order(models.Model):\n\
         \x20   STATUS = [('new', 'New'), ('paid', 'Paid'), ('shipped', 'Shipped'), ('cancelled', 'Cancelled')]\n\
         \x20   number = models.CharField(max_length=20, unique=True)\n\
         \x20   customer = models.ForeignKey(Customer, on_delete=models.CASCADE)\n\
         \x20   status = models.CharField(max_length=20, choices=STATUS)\n\
         \x20   amount = models.DecimalField(max_digits=10, decimal_places=2)\n\
         \x20   placed = models.DateField()\n\
         \x20   gift = models.BooleanField(default=False)\n\
         \x20   notes = models.TextField(blank=True)\n\
         \x20   def __str__(self):\n\
         \x20       return self.number\n",
    ),
    (
        "shop/admin.py",
        "from django.contrib import admin\n\
         from .models import Customer, Order\n\
         @admin.register(Order)\n\
         class OrderAdmin(admin.ModelAdmin):\n\
         \x20   list_display = ('number', 'customer', 'status', 'amount', 'placed', 'gift')\n\
         \x20   list_filter = ('status', 'gift', 'placed', 'customer')\n\
         \x20   search_fields = ('number', 'customer__name')\n\
         \x20   list_per_page = 100\n\
         \x20   date_hierarchy = 'placed'\n\
         admin.site.register(Customer)\n",
    ),
];

const DJANGO_SEED: &str = "\
import datetime
from django.contrib.auth.models import User
from shop.models import Customer, Order
User.objects.create_superuser('admin', 'admin@example.org', 'cup-bench-admin')
names = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov',
         'Donald Knuth', 'Frances Allen', 'John Backus', 'Margaret Hamilton', 'Ken Thompson']
cs = [Customer.objects.create(name=n, email=n.split()[0].lower() + '@example.org') for n in names]
st = ['new', 'paid', 'shipped', 'cancelled']
for i in range(100):
    Order.objects.create(number='ORD-%04d' % (1001 + i), customer=cs[i % 10], status=st[i % 4],
        amount=(i * 37) % 500 + 0.99, placed=datetime.date(2026, 1 + i % 11, 1 + i % 27), gift=i % 3 == 0,
        notes='Order %d of the bench corpus' % (i + 1))
";

impl DjangoAdmin {
    /// Writes the project under `dir`, migrates, seeds and starts
    /// `runserver` on a free loopback port; returns once the login page
    /// answers. `dir` is the server's: emptied first, removed when the
    /// server is dropped (kept, with what failed, when it does not start).
    ///
    /// # Errors
    ///
    /// Django missing (one line: run the setup), a step failing, the
    /// server not answering in 60 s.
    pub fn start(dir: &Path, venv: &Path) -> Result<DjangoAdmin, WebAppError> {
        Self::start_in(dir, venv).map_err(WebAppError)
    }

    fn start_in(dir: &Path, venv: &Path) -> Result<DjangoAdmin, String> {
        let python = python(venv)?;
        let _ = std::fs::remove_dir_all(dir);
        for (file, text) in DJANGO_FILES {
            let path = dir.join(file);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        let manage = |args: &[&str]| {
            let mut c = Command::new(&python);
            c.arg("manage.py").args(args).current_dir(dir);
            c
        };
        run(
            &mut manage(&["makemigrations", "shop", "-v", "0"]),
            "Django makemigrations",
        )?;
        run(&mut manage(&["migrate", "-v", "0"]), "Django migrate")?;
        run(&mut manage(&["shell", "-c", DJANGO_SEED]), "Django seed")?;
        let port = free_port()?;
        let mut child = manage(&["runserver", &format!("127.0.0.1:{port}"), "--noreload"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("Django runserver: cannot start: {e}"))?;
        if let Err(e) = wait_http(
            &mut child,
            port,
            "/admin/login/",
            Duration::from_secs(60),
            "Django",
        ) {
            stop(&mut child);
            return Err(e);
        }
        Ok(DjangoAdmin {
            child,
            port,
            dir: dir.to_path_buf(),
        })
    }

    /// The URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for DjangoAdmin {
    fn drop(&mut self) {
        stop(&mut self.child);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// JupyterLab with one notebook.
#[derive(Debug)]
pub struct JupyterLab {
    child: Child,
    /// Its loopback port.
    pub port: u16,
    /// The server's token.
    pub token: String,
    /// Its folders (notebook, configuration, data, runtime).
    dir: PathBuf,
}

/// The notebook's name and a line its first cell shows.
pub const NOTEBOOK: (&str, &str) = ("sales.ipynb", "Quarterly sales by region");

fn notebook() -> String {
    let md =
        |src: &str| serde_json::json!({"cell_type": "markdown", "metadata": {}, "source": src});
    let code = |src: &str, out: &str| {
        serde_json::json!({"cell_type": "code", "execution_count": 1, "metadata": {},
            "source": src,
            "outputs": [{"output_type": "stream", "name": "stdout", "text": out}]})
    };
    let mut cells = vec![md(
        "# Quarterly sales by region\n\nFigures of the bench's own shop, by quarter.",
    )];
    for (i, region) in ["North", "South", "East", "West", "Central", "Online"]
        .iter()
        .enumerate()
    {
        cells.push(code(
            &format!(
                "sales_{r} = [{a}, {b}, {c}, {d}]\nprint('{region}', sum(sales_{r}))",
                r = region.to_lowercase(),
                a = 100 + i * 7,
                b = 120 + i * 5,
                c = 90 + i * 11,
                d = 130 + i * 3
            ),
            &format!("{region} {}\n", 440 + i * 26),
        ));
        cells.push(md(&format!(
            "## {region}\n\nThe {region} region's quarters, **summed** above."
        )));
    }
    serde_json::json!({"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5})
    .to_string()
}

impl JupyterLab {
    /// Writes the notebook under `dir` and starts JupyterLab on a free
    /// loopback port with a token of its own (its configuration, data and
    /// runtime folders under `dir`); returns once its API answers. `dir` is
    /// the server's: emptied first, removed when the server is dropped
    /// (kept, with its log, when it does not start).
    ///
    /// # Errors
    ///
    /// JupyterLab missing (one line: run the setup), the server not
    /// answering in 90 s.
    pub fn start(dir: &Path, venv: &Path) -> Result<JupyterLab, WebAppError> {
        Self::start_in(dir, venv).map_err(WebAppError)
    }

    fn start_in(dir: &Path, venv: &Path) -> Result<JupyterLab, String> {
        let python = python(venv)?;
        let _ = std::fs::remove_dir_all(dir);
        let work = dir.join("work");
        std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
        std::fs::write(work.join(NOTEBOOK.0), notebook())
            .map_err(|e| format!("{}: {e}", work.display()))?;
        let port = free_port()?;
        let token = format!("cup-bench-{}", std::process::id());
        let log_path = dir.join("jupyterlab.log");
        let log =
            std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let mut child = Command::new(&python)
            .args(["-m", "jupyterlab", "--no-browser"])
            .arg(format!("--ServerApp.port={port}"))
            .arg("--ServerApp.ip=127.0.0.1")
            .arg(format!("--IdentityProvider.token={token}"))
            .arg(format!("--ServerApp.root_dir={}", work.display()))
            .arg("--LabApp.news_url=None")
            // The bench runs as root on CI; the server is private to it.
            .arg("--ServerApp.allow_root=True")
            .arg("--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
            .env("HOME", dir)
            .env("JUPYTER_CONFIG_DIR", dir.join("config"))
            .env("JUPYTER_DATA_DIR", dir.join("data"))
            .env("JUPYTER_RUNTIME_DIR", dir.join("runtime"))
            .env("IPYTHONDIR", dir.join("ipython"))
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("JupyterLab: cannot start: {e}"))?;
        let status = format!("/api/status?token={token}");
        if let Err(e) = wait_http(
            &mut child,
            port,
            &status,
            Duration::from_secs(90),
            "JupyterLab",
        ) {
            stop(&mut child);
            return Err(format!("{e} (its log: {})", log_path.display()));
        }
        Ok(JupyterLab {
            child,
            port,
            token,
            dir: dir.to_path_buf(),
        })
    }

    /// The URL that opens the notebook in the Lab.
    pub fn notebook_url(&self) -> String {
        format!(
            "http://127.0.0.1:{}/lab/tree/{}?token={}",
            self.port, NOTEBOOK.0, self.token
        )
    }
}

impl Drop for JupyterLab {
    fn drop(&mut self) {
        stop(&mut self.child);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
