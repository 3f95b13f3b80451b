/**
 * USD per data call (DESIGN.md §9). Plans carry their own (`plans.data_prices`, defaulting to
 * these); these price a call of a workspace whose plan names no price.
 */
export const DEFAULT_DATA_PRICES = { web_search: 0.005, people_search: 0.02, people_read: 0.05, company_search: 0.01, company_read: 0.02 } as const;
export type PriceName = keyof typeof DEFAULT_DATA_PRICES;
