"""OSWorld's Linux accessibility-tree getter, re-implemented on pyatspi.

This is the server half of the observation an OSWorld agent gets on Ubuntu:
what `GET /accessibility` of OSWorld's in-VM Flask server returns (the "AT"
string). It follows `desktop_env/server/main.py` of OSWorld as read at
pkueecszc/OSWorld, commit be0b6285d58df9e12bc3d67238642ec177c6fd40 (not
shipped in PyPI's desktop-env wheel, which has only the client side). The
code is written anew; each part names the function of main.py it follows:

- NS, the namespace map: main.py's `_accessibility_ns_map["ubuntu"]`
  (`_accessibility_ns_map_ubuntu`).
- MAX_DEPTH = 50, MAX_WIDTH = 1024: main.py's module constants of the same
  names. (main.py also declares MAX_CALLS = 5000, which its Linux walk never
  reads; nor does this one.)
- libreoffice_version(): main.py's `_get_libreoffice_version`.
- atspi_node(): main.py's `_create_atspi_node`, step by step (name, states,
  attributes, component extents when visible and showing, text, image,
  selection, value, action, role name, the calc/thunderbird flag, the depth
  cap, LibreOffice Calc's visible-cells table walk, and the MAX_WIDTH child
  walk whose errors drop the rest of the siblings).
- accessibility_tree(): main.py's `get_accessibility_tree`, its Linux
  branch (the LibreOffice version probe on every call, a `desktop-frame`
  root, one thread-pool task per application, appended in completion order,
  serialised with lxml.etree.tostring(encoding="unicode")).

It must use lxml (not xml.etree) for the same reason the original does: lxml
checks tag/attribute names and text for XML validity at creation, and the
ValueError it raises then is part of the behaviour (the parent's child walk
catches it and drops that child and all later siblings).
"""

from __future__ import annotations

import concurrent.futures
import logging
import subprocess
from typing import Dict, List, Optional, Sequence, Tuple

import lxml.etree
import pyatspi
from pyatspi import STATE_SHOWING, StateType

logger = logging.getLogger("osworld.server")

# main.py: _accessibility_ns_map["ubuntu"]
NS: Dict[str, str] = {
    "st": "https://accessibility.ubuntu.example.org/ns/state",
    "attr": "https://accessibility.ubuntu.example.org/ns/attributes",
    "cp": "https://accessibility.ubuntu.example.org/ns/component",
    "doc": "https://accessibility.ubuntu.example.org/ns/document",
    "docattr": "https://accessibility.ubuntu.example.org/ns/document/attributes",
    "txt": "https://accessibility.ubuntu.example.org/ns/text",
    "val": "https://accessibility.ubuntu.example.org/ns/value",
    "act": "https://accessibility.ubuntu.example.org/ns/action",
}


def _q(prefix: str, local: str) -> str:
    """Clark notation {uri}local for a namespace prefix of NS."""
    return "{%s}%s" % (NS[prefix], local)


# main.py: module constants
MAX_DEPTH = 50
MAX_WIDTH = 1024

# main.py: the module global `libreoffice_version_tuple`, set by
# get_accessibility_tree before each walk and read by the Calc branch.
_lo_version: Optional[Tuple[int, ...]] = None


def libreoffice_version() -> Optional[Tuple[int, ...]]:
    """main.py `_get_libreoffice_version`: `libreoffice --version` through the
    shell, second word, split on dots into ints.

    Not faithful on purpose in one case: where LibreOffice is missing (or
    prints something unexpected) main.py raises (IndexError/ValueError) and
    the whole /accessibility request fails with HTTP 500; here it returns
    None and the walk goes on (the Calc branch then assumes >= 7.4)."""
    result = subprocess.run(
        "libreoffice --version", shell=True, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    words = result.stdout.split()
    try:
        return tuple(int(part) for part in words[1].split("."))
    except (IndexError, ValueError):
        return None


def _calc_max_column() -> int:
    # main.py `_create_atspi_node`, Calc branch: 1024 columns before
    # LibreOffice 7.4, 16384 from 7.4 on.
    if _lo_version is not None and _lo_version < (7, 4):
        return 1024
    return 16384


def atspi_node(node, depth: int = 0, flag: Optional[str] = None) -> lxml.etree._Element:
    """main.py `_create_atspi_node`: one AT-SPI accessible (and, recursively,
    its children) as an lxml element whose tag is the role name."""
    attrs: Dict[str, str] = {"name": node.name}

    # States: every state in the set, as st:<name>="true", where <name> is
    # pyatspi's STATE_XXX constant name without "STATE_", lower-cased.
    for state in node.getState().get_states():
        short = StateType._enum_lookup[state].split("_", maxsplit=1)[1].lower()
        if short:
            attrs[_q("st", short)] = "true"

    # Object attributes (toolkit, xml-roles, ...) as attr:<key>.
    for key, value in node.get_attributes().items():
        if key:
            attrs[_q("attr", key)] = value

    # Extents only for nodes both visible and showing, in screen coordinates,
    # written as Python tuples: cp:screencoord="(x, y)", cp:size="(w, h)".
    if attrs.get(_q("st", "visible"), "false") == "true" and \
            attrs.get(_q("st", "showing"), "false") == "true":
        try:
            component = node.queryComponent()
        except NotImplementedError:
            pass
        else:
            box: Sequence[int] = component.getExtents(pyatspi.XY_SCREEN)
            attrs[_q("cp", "screencoord")] = str(tuple(box[0:2]))
            attrs[_q("cp", "size")] = str(tuple(box[2:]))

    # The whole text of the Text interface becomes the element's text, less
    # U+FFFC (object replacement) and U+FFFD (replacement character).
    text = ""
    try:
        text_iface = node.queryText()
        text = text_iface.getText(0, text_iface.characterCount)
        text = text.replace("\ufffc", "").replace("\ufffd", "")
    except NotImplementedError:
        pass

    # Interfaces present: Image and Selection as plain image="true" /
    # selection="true" (no namespace).
    try:
        node.queryImage()
        attrs["image"] = "true"
    except NotImplementedError:
        pass
    try:
        node.querySelection()
        attrs["selection"] = "true"
    except NotImplementedError:
        pass

    # Value: val:value/min/max/step, each str() of the float, each on its own
    # (a failing read leaves just that one out).
    try:
        value_iface = node.queryValue()
    except NotImplementedError:
        pass
    else:
        for local, read in (
            ("value", lambda: value_iface.currentValue),
            ("min", lambda: value_iface.minimumValue),
            ("max", lambda: value_iface.maximumValue),
            ("step", lambda: value_iface.minimumIncrement),
        ):
            try:
                attrs[_q("val", local)] = str(read())
            except Exception:  # main.py: bare except
                pass

    # Actions: act:<name>_desc and act:<name>_kb for each, spaces in the
    # action name turned into dashes.
    try:
        action_iface = node.queryAction()
        for index in range(action_iface.nActions):
            action = action_iface.getName(index).replace(" ", "-")
            attrs[_q("act", action + "_desc")] = action_iface.getDescription(index)
            attrs[_q("act", action + "_kb")] = action_iface.getKeyBinding(index)
    except NotImplementedError:
        pass

    # Tag: the role name, spaces to dashes, "unknown" when empty.
    raw_role = node.getRoleName().strip()
    tag = (raw_role or "unknown").replace(" ", "-")

    # The flag is set once, at the first spreadsheet document or at
    # Thunderbird's application node, and passed down to the subtree.
    if not flag:
        if raw_role == "document spreadsheet":
            flag = "calc"
        if raw_role == "application" and node.name == "Thunderbird":
            flag = "thunderbird"

    element = lxml.etree.Element(tag, attrib=attrs, nsmap=NS)
    if text:
        element.text = text

    if depth == MAX_DEPTH:
        logger.warning("Max depth reached")
        return element

    if flag == "calc" and tag == "table":
        _calc_table_children(node, element, depth, flag)
        return element

    # Children in index order, at most MAX_WIDTH. Any error (from a child's
    # own reads or from deeper down) ends this loop: the failing child and
    # every later sibling are left out, the ones before stay.
    try:
        for index, child in enumerate(node):
            if index == MAX_WIDTH:
                logger.warning("Max width reached")
                break
            element.append(atspi_node(child, depth + 1, flag))
    except Exception:  # main.py: bare except
        logger.warning(
            "Error occurred during children traversing. Has Ignored. Node: %s",
            lxml.etree.tostring(element, encoding="unicode"),
        )
    return element


def _calc_table_children(node, element, depth: int, flag: str) -> None:
    """main.py `_create_atspi_node`, the `flag == "calc" and table` branch: a
    Calc sheet exposes every cell as a child (row-major, MAXIMUN_COLUMN a
    row); only the showing ones are walked. Same scan and the same stop
    rules:

    - a row is scanned from the first showing column found so far (0 until
      one is found) to the row's end;
    - within a row, the scan stops at the first non-showing cell once a
      showing cell has been seen, or at column 500 and beyond;
    - the row loop stops when, after a row, the column the scan stopped at
      is that first showing column (the row had no showing cell), or when
      nothing has shown by row 500.

    Unlike the generic branch, errors here are not caught: they go up to the
    parent's child loop (which then drops the whole table)."""
    max_column = _calc_max_column()
    max_row = 1_048_576
    row_base = 0
    seen_showing = False
    first_column: Optional[int] = None
    for row in range(max_row):
        column = first_column or 0
        for column in range(first_column or 0, max_column):
            cell = node[row_base + column]
            if cell.getState().contains(STATE_SHOWING):
                element.append(atspi_node(cell, depth + 1, flag))
                if not seen_showing:
                    first_column = column
                    seen_showing = True
            elif (seen_showing and first_column is not None) or column >= 500:
                break
        if (seen_showing and column == first_column) or (not seen_showing and row >= 500):
            break
        row_base += max_column


def _loose(text: str) -> str:
    return " ".join(text.replace("-", " ").replace("_", " ").lower().split())


def title_matches(title_substring: str, app) -> bool:
    """Whether the application's name or one of its top-level children's
    (frame, window, dialog) names contains title_substring, compared case-
    insensitively with dashes and underscores as spaces: gtk3-widget-factory's
    frame has an empty accessible name (and X title "gtk3-widget-factory"),
    so "Widget Factory" matches it through the application name."""
    wanted = _loose(title_substring)
    names = [app.name or ""] + [child.name or "" for child in app]
    return any(wanted in _loose(name) for name in names)


def application_nodes(desktop, title_substring: Optional[str] = None) -> List:
    """The desktop's applications, in index order; with title_substring, only
    those title_matches() accepts. (Not in OSWorld, which always walks every
    application.)"""
    apps = []
    for app in desktop:
        if title_substring is None:
            apps.append(app)
            continue
        try:
            if title_matches(title_substring, app):
                apps.append(app)
        except Exception:
            continue
    return apps


def accessibility_tree(apps=None, probe_version: bool = True) -> str:
    """main.py `get_accessibility_tree`, Linux branch: probe LibreOffice's
    version, then walk every application of desktop 0 (or the ones given) on
    a thread pool, one task each starting at depth 1, under a `desktop-frame`
    root, and serialise. An error escaping an application's walk fails the
    whole call, as it makes the route answer 500 there."""
    global _lo_version
    if probe_version:
        _lo_version = libreoffice_version()
    if apps is None:
        apps = list(pyatspi.Registry.getDesktop(0))
    root = lxml.etree.Element("desktop-frame", nsmap=NS)
    with concurrent.futures.ThreadPoolExecutor() as executor:
        futures = [executor.submit(atspi_node, app, 1) for app in apps]
        for future in concurrent.futures.as_completed(futures):
            root.append(future.result())
    return lxml.etree.tostring(root, encoding="unicode")
