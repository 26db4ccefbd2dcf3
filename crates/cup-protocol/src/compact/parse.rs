//! Parser for the compact text: header and lines back into fields, so agents
//! and tools downstream can consume CUP text.

use crate::compact::line::{LineAttrs, LineFields};
use crate::compact::prune::{Clipped, Folded};
use crate::compact::render::{direction_word, TRUNCATION_MARK, UNTITLED};
use crate::compact::text;
use crate::node::{Orientation, Rect};
use crate::vocab::{Action, Direction, Role, State};

/// A parsed compact document.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// Header fields.
    pub header: Header,
    /// Body lines, in order.
    pub lines: Vec<Line>,
}

impl Document {
    /// The node lines with their depth.
    pub fn nodes(&self) -> impl Iterator<Item = (usize, &LineFields)> {
        self.lines.iter().filter_map(|l| match l {
            Line::Node { depth, fields } => Some((*depth, fields)),
            _ => None,
        })
    }
}

/// Header fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Header {
    /// Protocol version.
    pub version: String,
    /// Platform id.
    pub platform: String,
    /// Screen width.
    pub screen_w: i64,
    /// Screen height.
    pub screen_h: i64,
    /// `# app:` line.
    pub app: Option<String>,
    /// Node lines shown.
    pub nodes_shown: Option<usize>,
    /// Nodes in the raw tree.
    pub nodes_total: Option<usize>,
    /// Number of WebMCP tools.
    pub webmcp_tools: Option<usize>,
    /// Window list (foreground scope).
    pub windows: Vec<HeaderWindow>,
    /// Other header lines, without `# `.
    pub notes: Vec<String>,
    /// The text ends with the truncation notice.
    pub truncated: bool,
}

/// One window of the header window list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderWindow {
    /// Title as shown (cut to 50 characters; empty for `(untitled)`).
    pub title: String,
    /// Marked `[fg]`.
    pub foreground: bool,
}

/// A body line.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// A node.
    Node {
        /// Indentation level.
        depth: usize,
        /// Fields.
        fields: LineFields,
    },
    /// A clip hint after a container's children.
    Hint {
        /// Indentation level (the container's depth + 1).
        depth: usize,
        /// Container id named in the page calls.
        container: String,
        /// Hidden items by direction.
        clipped: Clipped,
    },
    /// A fold line (D13) after a container's children: items without a
    /// place on screen, counted instead of shown.
    Fold {
        /// Indentation level (the container's depth + 1).
        depth: usize,
        /// Container id named in the line.
        container: String,
        /// Folded items and the action that opens a closed container.
        folded: Folded,
    },
    /// Any other `#` line in the body.
    Comment {
        /// Indentation level.
        depth: usize,
        /// Text after `# `.
        text: String,
    },
}

/// A syntax error, with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn err(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// Parses compact text as [`render`](crate::compact::render()) writes it.
pub fn parse(input: &str) -> Result<Document, ParseError> {
    let mut lines = input
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .enumerate()
        .peekable();
    let mut header = Header::default();

    let (_, first) = lines.next().ok_or_else(|| err(1, "empty input"))?;
    let title = first
        .strip_prefix("# CUP ")
        .ok_or_else(|| err(1, "expected '# CUP <version> | <platform> | <w>x<h>'"))?;
    let parts: Vec<&str> = title.split(" | ").collect();
    let [version, platform, size] = parts[..] else {
        return Err(err(1, "expected '# CUP <version> | <platform> | <w>x<h>'"));
    };
    let (w, h) = size
        .split_once('x')
        .ok_or_else(|| err(1, "screen size must be <w>x<h>"))?;
    header.version = version.to_owned();
    header.platform = platform.to_owned();
    header.screen_w = w
        .parse()
        .map_err(|_| err(1, format!("bad screen width '{w}'")))?;
    header.screen_h = h
        .parse()
        .map_err(|_| err(1, format!("bad screen height '{h}'")))?;

    // Header lines up to the first blank line.
    while let Some((i, line)) = lines.next() {
        let n = i + 1;
        if line.is_empty() {
            break;
        }
        let body = line
            .strip_prefix("# ")
            .ok_or_else(|| err(n, "header lines start with '# '"))?;
        if let Some(app) = body.strip_prefix("app: ") {
            header.app = Some(app.to_owned());
        } else if let Some((shown, total)) = parse_node_count(body) {
            header.nodes_shown = Some(shown);
            header.nodes_total = Some(total);
        } else if let Some(k) = body
            .strip_suffix(" WebMCP tools available")
            .or_else(|| body.strip_suffix(" WebMCP tool available"))
            .and_then(|k| k.parse().ok())
        {
            header.webmcp_tools = Some(k);
        } else if let Some(count) = body
            .strip_prefix("--- ")
            .and_then(|r| r.strip_suffix(" open windows ---"))
        {
            let count: usize = count.parse().map_err(|_| err(n, "bad window count"))?;
            for _ in 0..count {
                let (j, wl) = lines
                    .next()
                    .ok_or_else(|| err(n, "window list ends early"))?;
                let title = wl
                    .strip_prefix("#   ")
                    .ok_or_else(|| err(j + 1, "window lines start with '#   '"))?;
                let (title, foreground) = match title.strip_suffix(" [fg]") {
                    Some(t) => (t, true),
                    None => (title, false),
                };
                let title = if title == UNTITLED { "" } else { title };
                header.windows.push(HeaderWindow {
                    title: title.to_owned(),
                    foreground,
                });
            }
        } else {
            header.notes.push(body.to_owned());
        }
    }

    let mut body = Vec::new();
    for (i, line) in lines {
        let n = i + 1;
        if line.is_empty() {
            continue;
        }
        let trimmed = line.trim_start_matches(' ');
        let spaces = line.len() - trimmed.len();
        if spaces % 2 != 0 {
            return Err(err(n, "indentation must be a multiple of two spaces"));
        }
        let depth = spaces / 2;
        if let Some(comment) = trimmed.strip_prefix('#') {
            if trimmed.starts_with(TRUNCATION_MARK) {
                header.truncated = true;
                break;
            }
            let comment = comment.strip_prefix(' ').unwrap_or(comment);
            body.push(if let Some((container, clipped)) = parse_hint(comment) {
                Line::Hint {
                    depth,
                    container,
                    clipped,
                }
            } else if let Some((container, folded)) = parse_fold(comment) {
                Line::Fold {
                    depth,
                    container,
                    folded,
                }
            } else {
                Line::Comment {
                    depth,
                    text: comment.to_owned(),
                }
            });
        } else {
            let fields = parse_node_line(trimmed).map_err(|m| err(n, m))?;
            body.push(Line::Node { depth, fields });
        }
    }
    Ok(Document {
        header,
        lines: body,
    })
}

fn parse_node_count(body: &str) -> Option<(usize, usize)> {
    let (shown, rest) = body.split_once(" nodes (")?;
    let total = rest.strip_suffix(" before pruning)")?;
    Some((shown.parse().ok()?, total.parse().ok()?))
}

/// `3 more items — 1 above: page(element_id='e0', direction='up'); ...`
fn parse_hint(s: &str) -> Option<(String, Clipped)> {
    let (head, rest) = s.split_once(" — ")?;
    let total: usize = head
        .strip_suffix(" more items")
        .or_else(|| head.strip_suffix(" more item"))?
        .parse()
        .ok()?;
    let mut clipped = Clipped::default();
    let mut container = None;
    for part in rest.split("; ") {
        let (count_word, call) = part.split_once(": page(element_id='")?;
        let (n, word) = count_word.split_once(' ')?;
        let n: usize = n.parse().ok()?;
        let (id, dir) = call.split_once("', direction='")?;
        let dir: Direction = dir.strip_suffix("')")?.parse().ok()?;
        if direction_word(dir) != word || container.as_deref().is_some_and(|c| c != id) {
            return None;
        }
        container = Some(id.to_owned());
        clipped.add(dir, n);
    }
    (clipped.total() == total).then_some(())?;
    Some((container?, clipped))
}

/// `12 items in closed menu e17: click to open` (before 2026-11-29:
/// `12 items in closed menu e17 — action(element_id='e17', action='click') to open`)
/// or `3 offscreen items without bounds under e40 — detail='full' shows them`.
fn parse_fold(s: &str) -> Option<(String, Folded)> {
    if let Some(fold) = parse_closed(s) {
        return Some(fold);
    }
    let (head, rest) = s.split_once(" — ")?;
    let (count, head) = head.split_once(' ')?;
    let items: usize = count.parse().ok()?;
    let one = items == 1;
    let closed = if one {
        "item in closed "
    } else {
        "items in closed "
    };
    if let Some(tail) = head.strip_prefix(closed) {
        let (role, id) = tail.split_once(' ')?;
        Role::from_name(role)?;
        let call = rest
            .strip_prefix("action(element_id='")?
            .strip_suffix("') to open")?;
        let (call_id, action) = call.split_once("', action='")?;
        let open: Action = action.parse().ok()?;
        (call_id == id && !id.is_empty()).then(|| {
            (
                id.to_owned(),
                Folded {
                    items,
                    open: Some(open),
                },
            )
        })
    } else {
        let id = head.strip_prefix(if one {
            "offscreen item without bounds under "
        } else {
            "offscreen items without bounds under "
        })?;
        let shows = if one { "it" } else { "them" };
        (rest == format!("detail='full' shows {shows}") && !id.is_empty() && !id.contains(' '))
            .then(|| (id.to_owned(), Folded { items, open: None }))
    }
}

/// `12 items in closed menu e17: click to open`.
fn parse_closed(s: &str) -> Option<(String, Folded)> {
    let (head, action) = s.strip_suffix(" to open")?.split_once(": ")?;
    let (count, tail) = head.split_once(' ')?;
    let items: usize = count.parse().ok()?;
    let tail = tail.strip_prefix(if items == 1 {
        "item in closed "
    } else {
        "items in closed "
    })?;
    let (role, id) = tail.split_once(' ')?;
    Role::from_name(role)?;
    let open: Action = action.parse().ok()?;
    (!id.is_empty() && !id.contains(' ')).then(|| {
        (
            id.to_owned(),
            Folded {
                items,
                open: Some(open),
            },
        )
    })
}

/// A cursor over one line.
struct Scan<'a> {
    rest: &'a str,
}

impl<'a> Scan<'a> {
    fn eat(&mut self, prefix: &str) -> bool {
        match self.rest.strip_prefix(prefix) {
            Some(r) => {
                self.rest = r;
                true
            }
            None => false,
        }
    }

    fn until(&mut self, end: char) -> Result<&'a str, String> {
        let i = self
            .rest
            .find(end)
            .ok_or_else(|| format!("missing '{end}'"))?;
        let out = &self.rest[..i];
        self.rest = &self.rest[i + end.len_utf8()..];
        Ok(out)
    }

    /// The body of a quoted string whose opening quote was eaten.
    fn quoted(&mut self) -> Result<String, String> {
        let mut escaped = false;
        for (i, c) in self.rest.char_indices() {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => {
                    let out = text::unescape(&self.rest[..i]);
                    self.rest = &self.rest[i + 1..];
                    return Ok(out);
                }
                _ => {}
            }
        }
        Err("unterminated quoted string".to_owned())
    }
}

fn parse_node_line(line: &str) -> Result<LineFields, String> {
    let mut s = Scan { rest: line };
    if !s.eat("[") {
        return Err("a node line starts with '[id]'".to_owned());
    }
    let id = s.until(']')?;
    if !(id.starts_with('e') && id.len() > 1 && id[1..].bytes().all(|b| b.is_ascii_digit())) {
        return Err(format!("bad id '{id}'; ids look like e14"));
    }
    if !s.eat(" ") {
        return Err("expected a role code after the id".to_owned());
    }
    let code_end = s.rest.find(' ').unwrap_or(s.rest.len());
    let code = &s.rest[..code_end];
    let role = Role::from_code(code).ok_or_else(|| format!("unknown role code '{code}'"))?;
    s.rest = &s.rest[code_end..];

    let mut fields = LineFields {
        id: id.to_owned(),
        role,
        name: None,
        bounds: None,
        states: Vec::new(),
        actions: Vec::new(),
        value: None,
        attrs: LineAttrs::default(),
    };
    if s.eat(" \"") {
        fields.name = Some(s.quoted()?);
    }
    if s.rest.starts_with(' ') && s.rest[1..].starts_with(|c: char| c.is_ascii_digit() || c == '-')
    {
        s.eat(" ");
        let pos = s.until(' ')?;
        let size_end = s.rest.find(' ').unwrap_or(s.rest.len());
        let size = &s.rest[..size_end];
        s.rest = &s.rest[size_end..];
        fields.bounds =
            Some(parse_bounds(pos, size).ok_or_else(|| format!("bad bounds '{pos} {size}'"))?);
    }
    if s.eat(" {") {
        for code in s.until('}')?.split(',') {
            fields.states.push(
                State::from_code(code).ok_or_else(|| format!("unknown state code '{code}'"))?,
            );
        }
    }
    if s.eat(" [") {
        for code in s.until(']')?.split(',') {
            fields.actions.push(
                Action::from_code(code).ok_or_else(|| format!("unknown action code '{code}'"))?,
            );
        }
    }
    if s.eat(" val=\"") {
        fields.value = Some(s.quoted()?);
    }
    if s.eat(" (") {
        parse_attrs(&mut s, &mut fields.attrs)?;
    }
    if !s.rest.is_empty() {
        return Err(format!("unexpected text '{}'", s.rest));
    }
    Ok(fields)
}

fn parse_bounds(pos: &str, size: &str) -> Option<Rect> {
    let (x, y) = pos.split_once(',')?;
    let (w, h) = size.split_once('x')?;
    Some(Rect::new(
        x.parse().ok()?,
        y.parse().ok()?,
        w.parse().ok()?,
        h.parse().ok()?,
    ))
}

fn parse_attrs(s: &mut Scan<'_>, attrs: &mut LineAttrs) -> Result<(), String> {
    loop {
        if s.eat(")") {
            return Ok(());
        }
        if s.eat("ph=\"") {
            attrs.placeholder = Some(s.quoted()?);
        } else {
            let end = s.rest.find([' ', ')']).ok_or("missing ')'")?;
            let token = &s.rest[..end];
            s.rest = &s.rest[end..];
            match token {
                "ocr" => attrs.ocr = true,
                "h" => attrs.orientation = Some(Orientation::Horizontal),
                "v" => attrs.orientation = Some(Orientation::Vertical),
                t if t.starts_with('L') => {
                    attrs.level = Some(t[1..].parse().map_err(|_| format!("bad level '{t}'"))?);
                }
                t if t.starts_with("range=") => {
                    let (min, max) = t[6..]
                        .split_once("..")
                        .ok_or_else(|| format!("bad range '{t}'"))?;
                    let num = |v: &str| -> Result<Option<f64>, String> {
                        if v.is_empty() {
                            Ok(None)
                        } else {
                            v.parse()
                                .map(Some)
                                .map_err(|_| format!("bad number '{v}' in range"))
                        }
                    };
                    attrs.range = Some((num(min)?, num(max)?));
                }
                t => return Err(format!("unknown attribute '{t}'")),
            }
        }
        s.eat(" ");
    }
}
