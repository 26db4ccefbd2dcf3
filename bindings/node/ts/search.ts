/**
 * Searching a CUP tree: cup-protocol's search (role synonyms, query
 * parsing, fuzzy name scoring), the one the CLI, MCP server and Python use.
 */

import { native } from "./native";
import { ROLE_CODES, SYNONYMS } from "./format";
import type { CupNode, SearchResult } from "./types";

/** Every CUP role. */
export const ALL_ROLES: ReadonlySet<string> = new Set(Object.keys(ROLE_CODES));

/**
 * Role words and synonyms → the CUP roles each stands for (every role
 * stands for itself; `search bar` → searchbox, textbox, combobox; …).
 */
export const ROLE_SYNONYMS: Map<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ...[...ALL_ROLES].map((r): [string, ReadonlySet<string>] => [r, new Set([r])]),
  ...SYNONYMS.map(([word, roles]): [string, ReadonlySet<string>] => [word, new Set(roles)]),
]);

/** Lowercase, accent-free word tokens. */
export function tokenize(text: string): string[] {
  return native.tokenize(text);
}

/** The CUP roles a role word or synonym stands for, or null. */
export function resolveRoles(phrase: string): Set<string> | null {
  const roles = native.resolveRoles(phrase);
  return roles === null ? null : new Set(roles);
}

/** A search of a tree; `limit` defaults to 5. */
export interface SearchOptions {
  query?: string;
  role?: string;
  name?: string;
  state?: string;
  limit?: number;
}

/** The nodes of `tree` that match, best first, each with its score (nodes without children). */
export function searchTree(tree: CupNode[], options: SearchOptions = {}): SearchResult[] {
  return JSON.parse(
    native.searchTree(
      JSON.stringify(tree),
      options.query ?? null,
      options.role ?? null,
      options.name ?? null,
      options.state ?? null,
      options.limit ?? 5,
    ),
  ) as SearchResult[];
}
