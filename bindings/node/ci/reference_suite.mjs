#!/usr/bin/env node
// Compares two vitest JSON reports of the reference TypeScript SDK's own
// suite (computeruseprotocol 0.1.0's tests/): one on the reference's src/,
// one on cup-rs (reference-suite.sh beside this file makes both). Prints the
// counts, and fails unless every test the reference passes also passes
// here, except the tests listed below with the reason; a listed test that
// passes here, or fails on the reference, is STALE and fails too.
//
//   reference_suite.mjs --reference R.json --reference-root DIR --ours O.json --ours-root DIR
//
// Test ids: "tests/<file> > <describe> > <it>".

import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { parseArgs } from "node:util";

// Tests the reference passes that assert a behaviour cup differs on by
// decision: the reason names the decision; the second string is the failure
// each must fail with here (any other failure is a defect).
const DECISIONS = {
  "tests/format.test.ts > viewport clipping > clips offscreen children of scrollable containers": [
    "pruneTree adds no `_clipped` key (a CUP node allows no other properties: cup.schema.json); "
    + "the hidden items are in the compact text's clip hint (docs/node.md, docs/compact-format.md D5)",
    "TypeError: actual value must be number or bigint, received \"undefined\""],
  "tests/page.test.ts > pruneTree clipping with page integration > attaches _clipped metadata to scrollable container": [
    "pruneTree adds no schema-invalid `_clipped` key; the clip hint names page() instead "
    + "(docs/node.md, docs/compact-format.md D5)",
    "AssertionError: expected undefined to be defined"],
  "tests/format.test.ts > serializeCompact > truncates at maxChars": [
    "over the cap cup leaves out the longest list's last items with a page() line instead of cutting "
    + "the text's end (200 buttons in 500 characters fit so; docs/compact-format.md D15)",
    "to contain '# OUTPUT TRUNCATED'"],
};

// Tests that use the reference's private names, by id prefix: why (the
// public equivalent, where there is one, is named), and the failure each
// must fail with here.
const PRIVATE = {
  "tests/actions.test.ts > MacosActionHandler > ": [
    "imports src/actions/macos.js (MacosActionHandler, the reference's own macOS handler; "
    + "cup's macOS actions are behind Session)",
    "TypeError: MacosActionHandler is not a constructor"],
};

// Tests that return before their first assertion on this platform: they
// pass on both without testing anything (reported apart, counted as passes).
const NO_OPS = {
  "tests/actions.test.ts > MacosActionHandler > press works on macOS":
    ["darwin", "returns before anything off macOS"],
  "tests/actions.test.ts > MacosActionHandler > openApp rejects nonexistent app":
    ["darwin", "returns before anything off macOS"],
};

// Test files that never call the package (what they pass says nothing of
// cup-rs's behaviour).
const NOT_THE_PACKAGE = {
  "tests/batch.test.ts": "imports only a type; builds plain objects",
  "tests/schema.test.ts": "reads schema/*.json (cup's crates/cup-protocol/data/ in the cup-rs run) with ajv",
};

const { values: a } = parseArgs({
  options: {
    reference: { type: "string" }, "reference-root": { type: "string" },
    ours: { type: "string" }, "ours-root": { type: "string" },
  },
});
for (const k of ["reference", "reference-root", "ours", "ours-root"]) {
  if (!a[k]) {
    console.error(`reference_suite.mjs: --${k} is required`);
    process.exit(2);
  }
}

/** Outcome ("passed", "failed", "skipped") and failure text per test id,
 * and the files vitest could not load. */
function load(report, root) {
  const data = JSON.parse(readFileSync(report, "utf8"));
  const outcomes = new Map();
  const failures = new Map();
  const unloaded = [];
  for (const file of data.testResults) {
    const rel = relative(root, file.name).split("\\").join("/");
    if (file.assertionResults.length === 0 && file.status === "failed") {
      unloaded.push(`${rel}: ${(file.message || "").split("\n")[0]}`);
    }
    for (const t of file.assertionResults) {
      const id = [rel, ...t.ancestorTitles, t.title].join(" > ");
      const status = t.status === "passed" ? "passed" : t.status === "failed" ? "failed" : "skipped";
      outcomes.set(id, status);
      if (t.failureMessages?.length) failures.set(id, t.failureMessages.join("\n"));
    }
  }
  return { outcomes, failures, unloaded };
}

function counts(o) {
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const v of o.values()) c[v] += 1;
  return `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
}

function reason(id) {
  if (id in DECISIONS) return ["decision", ...DECISIONS[id]];
  for (const [prefix, [why, failsWith]] of Object.entries(PRIVATE)) {
    if (id.startsWith(prefix)) return ["private", why, failsWith];
  }
  return ["", "", ""];
}

// A failure's first lines, without the test runner's own stack frames.
const firstLines = (text, n) => text.split("\n").filter((l) => l.trim() && !/\/node_modules\/|\(node:internal/.test(l)).slice(0, n).map((l) => `        | ${l}`).join("\n");

const ref = load(a.reference, a["reference-root"]);
const ours = load(a.ours, a["ours-root"]);
const total = ref.outcomes.size;
console.log(`reference suite: ${total} tests in computeruseprotocol 0.1.0's tests/`);
console.log(`  the reference on its own src/: ${counts(ref.outcomes)}`);
console.log(`  cup-rs:                        ${counts(ours.outcomes)}, ${total - ours.outcomes.size} not run`);
for (const [label, r] of [["the reference", ref], ["cup-rs", ours]]) {
  for (const u of r.unloaded) console.log(`  ${label}: a file vitest could not load: ${u}`);
}

const refPassed = [...ref.outcomes].filter(([, v]) => v === "passed").map(([k]) => k).sort();
const both = refPassed.filter((t) => ours.outcomes.get(t) === "passed");
const missing = refPassed.filter((t) => ours.outcomes.get(t) !== "passed");
const byKind = { decision: [], private: [], "": [] };
for (const t of missing) byKind[reason(t)[0]].push(t);

console.log("  per file (the reference's passes / passing here):");
const files = [...new Set(refPassed.map((t) => t.split(" > ")[0]))].sort();
for (const f of files) {
  const n = refPassed.filter((t) => t.startsWith(`${f} > `)).length;
  const m = both.filter((t) => t.startsWith(`${f} > `)).length;
  const note = NOT_THE_PACKAGE[f] ? ` (never calls the package: ${NOT_THE_PACKAGE[f]})` : "";
  console.log(`    ${f}: ${n} / ${m}${note}`);
}
const noOps = both.filter((t) => t in NO_OPS && process.platform !== NO_OPS[t][0]);
if (noOps.length) {
  console.log(`  passing on both without testing anything on ${process.platform}:`);
  for (const t of noOps) console.log(`    ${t}: ${NO_OPS[t][1]}`);
}
const extra = [...ours.outcomes].filter(([t, v]) => v === "passed" && ref.outcomes.get(t) !== "passed");
if (extra.length) {
  console.log(`  passing here but not on the reference: ${extra.length}`);
  for (const [t] of extra) console.log(`    + ${t} (reference: ${ref.outcomes.get(t) ?? "absent"})`);
}
console.log("  differences by decision:");
for (const t of byKind.decision) console.log(`    ${t}\n        ${DECISIONS[t][0]}`);
console.log("  private imports:");
for (const [prefix, [why]] of Object.entries(PRIVATE)) {
  const n = byKind.private.filter((t) => t.startsWith(prefix)).length;
  console.log(`    ${prefix.replace(/ > $/, "")} (${n} of the reference's passes): ${why}`);
  for (const t of byKind.private.filter((x) => x.startsWith(prefix))) {
    console.log(`      ${t}\n${firstLines(ours.failures.get(t) ?? "not run", 1)}`);
  }
}
let ok = true;
for (const t of [...byKind.decision, ...byKind.private]) {
  const failsWith = reason(t)[2];
  const said = ours.failures.get(t) ?? "";
  if (!said.includes(failsWith)) {
    console.log(`  OTHER FAILURE: ${t} must fail with ${JSON.stringify(failsWith)} here, not:`);
    console.log(firstLines(said || "no failure recorded", 3));
    ok = false;
  }
}
for (const t of byKind[""]) {
  console.log(`  UNEXPLAINED: ${t} passes on the reference, ${ours.outcomes.get(t) ?? "not run"} here`);
  console.log(firstLines(ours.failures.get(t) ?? "", 12));
  ok = false;
}
for (const t of Object.keys(DECISIONS)) {
  if (ours.outcomes.get(t) === "passed" || ref.outcomes.get(t) !== "passed") {
    console.log(`  STALE: ${t} is listed as a difference but is ${ours.outcomes.get(t) ?? "absent"} here `
      + `and ${ref.outcomes.get(t) ?? "absent"} on the reference`);
    ok = false;
  }
}
for (const t of Object.keys(NO_OPS)) {
  if (ref.outcomes.get(t) !== "passed") {
    console.log(`  STALE: ${t} is listed as a no-op but is ${ref.outcomes.get(t) ?? "absent"} on the reference`);
    ok = false;
  }
}
for (const prefix of Object.keys(PRIVATE)) {
  if (!byKind.private.some((t) => t.startsWith(prefix)) && !noOps.some((t) => t.startsWith(prefix))) {
    console.log(`  STALE: no test under ${prefix.replace(/ > $/, "")} fails here any more`);
    ok = false;
  }
}
const noOpNote = noOps.length ? ` (${noOps.length} of them no-ops on ${process.platform})` : "";
console.log(`reference suite: ${both.length} of the reference's ${refPassed.length} passes pass here${noOpNote}, `
  + `${byKind.decision.length} by decision, ${byKind.private.length} private imports, ${byKind[""].length} unexplained`);
console.log(`reference suite: ${ok ? "PASS" : "FAIL"}`);
process.exit(ok ? 0 : 1);
