#!/usr/bin/env node
// `cup` (and `npx cup-rs`): runs the cup executable shipped with the
// package, with this process's arguments, standard streams and exit code.
"use strict";
const { spawn } = require("node:child_process");
const { cupExecutable } = require("../dist/locate.js");

function run(args) {
  let exe;
  try {
    exe = cupExecutable();
  } catch (e) {
    process.stderr.write(`cup-rs: ${e.message}\n`);
    process.exit(1);
  }
  const child = spawn(exe, args, { stdio: "inherit", windowsHide: false });
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(sig, () => child.kill(sig));
  }
  child.on("error", (e) => {
    process.stderr.write(`cup-rs: cannot run ${exe}: ${e.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

module.exports = { run };
if (require.main === module) run(process.argv.slice(2));
