/** cup's version (the addon's). */

import { native } from "./native";

/** cup's version, e.g. `0.1.0`. */
export const version: string = native.version();
