#!/usr/bin/env python3
"""Runs the reference Python SDK's own pytest suite (computeruseprotocol
0.1.0, its sdist's tests/, unmodified) twice: on the reference's own code,
and on this package (the sdist's cup/ folder removed, so `import cup` is
cup-rs). Prints the counts, and fails unless every test the reference
passes also passes here, except the tests listed below with the reason.

Usage: reference_suite.py --ref-python PY --ours-python PY --sdist TAR --work DIR
  PY: interpreters of two venvs with pytest and jsonschema; the second also
  has cup-rs installed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, Tuple

# Tests the reference passes that assert a behaviour cup differs on by
# decision: the reason names the decision, and the second string is the
# failure each must fail with here (any other failure is a defect).
DECISIONS: Dict[str, Tuple[str, str]] = {
    "tests/test_actions.py::TestParseCombo::test_empty_parts_ignored": (
        "`ctrl++s` is ctrl + the plus key + s: cup's combos can name the `+` key "
        "(`ctrl++`, `ctrl+plus`); the reference drops it (notes: parse_combo)",
        "assert ['plus', 's'] == ['s']"),
    "tests/test_format.py::TestClippedHints::test_clipped_hint_direction_below": (
        "clip hints name the page() call of each direction with its count, "
        "not 'scroll down' (docs/compact-format.md D5)",
        "assert 'scroll down' in"),
    "tests/test_format.py::TestClippedHints::test_clipped_hint_direction_above": (
        "clip hints name page(direction='up') (docs/compact-format.md D5)",
        "assert 'scroll up' in"),
    "tests/test_format.py::TestClippedHints::test_clipped_hint_direction_both": (
        "one hint line lists every direction with its own page() call (docs/compact-format.md D5)",
        "assert 'scroll up/down' in"),
    "tests/test_format.py::TestClippedHints::test_hint_indentation": (
        "one hidden item reads '1 more item', singular; the test looks for 'more items' "
        "(docs/compact-format.md D5)",
        "assert 0 == 1"),
    "tests/test_format.py::TestScreenViewportClipping::test_screen_clipping_shows_hint": (
        "'1 more item', singular (docs/compact-format.md D5)",
        "assert 'more items' in"),
}

# Tests that import the reference's private names, by id prefix: why, and
# the import error each must fail with here (a test file that fails at
# import is not collected: its collection error must say it).
PRIVATE: Dict[str, Tuple[str, str]] = {
    "tests/test_web_actions.py::": (
        "imports cup.actions._web (_CDP_KEY_MAP, _CDP_MODIFIER_MAP, _get_click_point), "
        "the reference's own CDP handler",
        "No module named 'cup.actions._web'"),
    "tests/test_actions.py::TestMacosHandler::": (
        "imports cup.actions._macos (MacosActionHandler)",
        "No module named 'cup.actions._macos'"),
    "tests/test_actions.py::TestLinuxHandler::": (
        "imports cup.actions._linux (LinuxActionHandler)",
        "No module named 'cup.actions._linux'"),
    "tests/test_actions.py::TestWebStub::": (
        "imports cup.actions._web (WebActionHandler)",
        "No module named 'cup.actions._web'"),
    "tests/test_actions.py::TestFuzzyMatch::": (
        "imports cup.actions._windows._fuzzy_match",
        "No module named 'cup.actions._windows'"),
}

Outcomes = Dict[str, str]


def run_suite(python: str, root: Path, label: str) -> Tuple[Outcomes, int, Dict[str, str]]:
    """pytest in `root`; outcome per test id, the number of files that
    could not be collected, and the failure text per test id (per file,
    `tests/FILE.py::`, for a file that could not be collected)."""
    report = root / "report.xml"
    subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--continue-on-collection-errors",
         f"--junitxml={report}", "tests"],
        cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
    )
    if not report.is_file():
        sys.exit(f"reference-suite: pytest wrote no report for {label} (is pytest installed in {python}?)")
    outcomes: Outcomes = {}
    failures: Dict[str, str] = {}
    uncollected = 0
    for case in ET.parse(report).iter("testcase"):
        cls = case.get("classname", "")
        name = case.get("name", "")
        failed = case.find("failure")
        if failed is None:
            failed = case.find("error")
        said = "" if failed is None else f"{failed.get('message', '')}\n{failed.text or ''}"
        if not cls and name.startswith("tests."):
            uncollected += 1
            failures["/".join(name.split(".")) + ".py::"] = said
            continue
        parts = cls.split(".")
        path = "/".join(parts[:2]) + ".py"
        test_id = "::".join([path, *parts[2:], name])
        if case.find("skipped") is not None:
            outcomes[test_id] = "skipped"
        elif failed is not None:
            outcomes[test_id] = "failed"
            failures[test_id] = said
        else:
            outcomes[test_id] = "passed"
    return outcomes, uncollected, failures


def counts(o: Outcomes) -> str:
    c = {k: sum(1 for v in o.values() if v == k) for k in ("passed", "failed", "skipped")}
    return f"{c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped"


def reason(test_id: str) -> Tuple[str, str, str]:
    """Why a test the reference passes may fail here: its kind, the reason
    and the failure it must fail with."""
    if test_id in DECISIONS:
        return ("decision", *DECISIONS[test_id])
    for prefix, (why, fails_with) in PRIVATE.items():
        if test_id.startswith(prefix):
            return "private", why, fails_with
    return "", "", ""


def failure_of(test_id: str, failures: Dict[str, str]) -> str:
    """What a test failed with here; a test of a file that could not be
    collected failed with the file's collection error."""
    if test_id in failures:
        return failures[test_id]
    return failures.get(test_id.split("::")[0] + "::", "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref-python", required=True)
    ap.add_argument("--ours-python", required=True)
    ap.add_argument("--sdist", required=True, type=Path)
    ap.add_argument("--work", required=True, type=Path)
    a = ap.parse_args()

    shutil.rmtree(a.work, ignore_errors=True)
    trees = {}
    for label in ("reference", "cup-rs"):
        dest = a.work / label
        dest.mkdir(parents=True)
        with tarfile.open(a.sdist) as tar:
            tar.extractall(dest)
        (top,) = list(dest.iterdir())
        trees[label] = top
    shutil.rmtree(trees["cup-rs"] / "cup")

    ref, _, _ = run_suite(a.ref_python, trees["reference"], "the reference")
    ours, uncollected, failures = run_suite(a.ours_python, trees["cup-rs"], "cup-rs")
    total = len(ref)
    print(f"reference-suite: {total} tests in computeruseprotocol 0.1.0's tests/")
    print(f"  the reference on its own code: {counts(ref)}")
    print(f"  cup-rs:                        {counts(ours)}, "
          f"{total - len(ours)} not collected ({uncollected} files import private names)")

    ref_passed = sorted(t for t, v in ref.items() if v == "passed")
    both = [t for t in ref_passed if ours.get(t) == "passed"]
    missing = [t for t in ref_passed if ours.get(t) != "passed"]
    by_kind: Dict[str, list] = {"decision": [], "private": [], "": []}
    for t in missing:
        by_kind[reason(t)[0]].append(t)
    print(f"  of the reference's {len(ref_passed)} passes: {len(both)} pass here, "
          f"{len(by_kind['decision'])} assert a behaviour cup differs on by decision, "
          f"{len(by_kind['private'])} import private names, {len(by_kind[''])} unexplained")
    extra = [t for t, v in ours.items() if v == "passed" and ref.get(t) != "passed"]
    if extra:
        print(f"  passing here but not on the reference: {len(extra)}")
        for t in extra:
            print(f"    + {t} (reference: {ref.get(t, 'absent')})")
    print("  differences by decision:")
    for t in by_kind["decision"]:
        print(f"    {t}\n        {DECISIONS[t][0]}")
    print("  private imports:")
    for prefix, (why, _) in PRIVATE.items():
        n = sum(1 for t in by_kind["private"] if t.startswith(prefix))
        print(f"    {prefix} ({n} of the reference's passes): {why}")
    ok = True
    for t in by_kind["decision"] + by_kind["private"]:
        said = failure_of(t, failures)
        fails_with = reason(t)[2]
        if fails_with not in said:
            first = next((line for line in said.splitlines() if line.strip()), "no failure recorded")
            print(f"  OTHER FAILURE: {t} must fail with {fails_with!r} here, not: {first[:200]}")
            ok = False
    for t in by_kind[""]:
        print(f"  UNEXPLAINED: {t} passes on the reference, {ours.get(t, 'not run')} here")
        ok = False
    stale = [t for t in DECISIONS if ours.get(t) == "passed" or ref.get(t) != "passed"]
    for t in stale:
        print(f"  STALE: {t} is listed as a difference but passes here or fails on the reference")
        ok = False
    for prefix in PRIVATE:
        if not any(t.startswith(prefix) for t in by_kind["private"]):
            print(f"  STALE: no test under {prefix} fails here any more")
            ok = False
    print("reference-suite: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
