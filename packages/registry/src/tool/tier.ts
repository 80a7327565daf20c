/**
 * Approval tiers, ordered: `read` (no side effects) < `write` (changes files) < `exec` (starts or
 * controls a process). A tier decides visibility as well as prompting: a surface capped at `read`
 * does not see `write` or `exec` tools at all.
 */
export type Tier = "read" | "write" | "exec";

/** Every tier, lowest first. */
export const tiers: readonly Tier[] = ["read", "write", "exec"];

const rank: Record<Tier, number> = { read: 0, write: 1, exec: 2 };

/** True when a tool of `tier` is allowed on a surface capped at `cap`. */
export function tierWithin(tier: Tier, cap: Tier): boolean {
  return rank[tier] <= rank[cap];
}

/** True when `value` names a tier. */
export function isTier(value: unknown): value is Tier {
  return value === "read" || value === "write" || value === "exec";
}
