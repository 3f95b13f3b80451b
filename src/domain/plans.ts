/** Plan names a workspace can have; `none` on the CLI clears the plan (402 plan_required). */
export const PLANS = ['trial', 'starter', 'growth', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const DEFAULT_PLAN: Plan = 'starter';
