/**
 * Where the package's native parts are: the addon and the `cup`
 * executable, beside the package's root (a local build) or in the
 * platform package npm installed (`cup-rs-<platform>-<arch>[-<libc>]`).
 * Loads nothing.
 */

import * as path from "node:path";
import * as fs from "node:fs";

/** The platform triple of this process, as package names spell it. */
export function triple(): string {
  const { platform, arch } = process;
  if (platform === "linux") {
    const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
    const libc = report?.header?.glibcVersionRuntime ? "gnu" : "musl";
    return `linux-${arch}-${libc}`;
  }
  if (platform === "win32") return `win32-${arch}-msvc`;
  return `${platform}-${arch}`;
}

/** The package's root folder (dist/.. of this file). */
export const packageRoot = path.resolve(__dirname, "..");

/**
 * The path of the `cup` executable: `$CUP_EXECUTABLE`, else the one beside
 * the package's root (a local build), else the platform package's.
 */
export function cupExecutable(): string {
  const exe = process.platform === "win32" ? "cup.exe" : "cup";
  const local = path.join(packageRoot, exe);
  if (process.env.CUP_EXECUTABLE) return process.env.CUP_EXECUTABLE;
  if (fs.existsSync(local)) return local;
  try {
    return path.join(path.dirname(require.resolve(`cup-rs-${triple()}/package.json`)), exe);
  } catch {
    throw new Error(
      `cup-rs has no cup executable for ${triple()} (looked in ${local} and cup-rs-${triple()}); install the package again`,
    );
  }
}

