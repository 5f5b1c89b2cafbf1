/**
 * Business constants of spec §9 on the web side: the one module they live in, imported and never
 * retyped. Add the other screens' constants here.
 */

/** Default search result count k (spec §9), sent with each of the four queries of a search. */
export const SEARCH_RESULT_COUNT = 25;

/** File sizes on the Collections screen: B, KB, MB, GB in steps of 1024 with one decimal (spec §9). */
export const COLLECTION_FILE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB'] as const;
export const COLLECTION_FILE_SIZE_STEP = 1024;

/** Usage screen (spec §9): the default daily range is the last 30 days including today. */
export const USAGE_DEFAULT_DAYS = 30;
/** How often the 'updated N min(s) ago' label refreshes. */
export const USAGE_UPDATED_LABEL_INTERVAL_MS = 60_000;
/** Usage charts: height, minimum width, and the loading skeleton's width (about 280 px). */
export const USAGE_CHART_HEIGHT = 240;
export const USAGE_CHART_MIN_WIDTH = 300;
export const USAGE_CHART_SKELETON_WIDTH = 280;
/** Day mode shows at most this many axis labels; hour mode labels 6am, 12pm and 6pm; minute mode three points. */
export const USAGE_DAY_AXIS_MAX_LABELS = 5;
export const USAGE_HOUR_AXIS_LABEL_HOURS = [6, 12, 18] as const;
export const USAGE_MINUTE_AXIS_LABEL_MINUTES = [0, 30, 59] as const;
/** Smallest top of the count axis and of the bytes axis. */
export const USAGE_COUNT_AXIS_MIN = 10;
export const USAGE_BYTES_AXIS_MIN = 1000;
/** Counts shortened with k, M, B; sizes in B..TB by decimal steps of 1000. */
export const USAGE_COUNT_SUFFIXES = ['', 'k', 'M', 'B'] as const;
export const USAGE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
export const USAGE_SIZE_STEP = 1000;
/** The usage collection dropdown: at most 300 px high, at least 250 px wide. */
export const USAGE_COLLECTION_DROPDOWN_MAX_HEIGHT = 300;
export const USAGE_COLLECTION_DROPDOWN_MIN_WIDTH = 250;

/** Billing plans (spec §9): monthly prices in cents (Enterprise: custom pricing) and Starter's free trial. */
export const PLAN_MONTHLY_PRICE_CENTS = { starter: 50_00, teams: 500_00, enterprise: null } as const;
export const STARTER_TRIAL_WEEKS = 2;
/** The flagship reranker (spec §9): price per million tokens and rate limit in bytes per minute. */
export const RERANKER_PRICE_PER_MILLION_TOKENS_USD = 0.025;
export const RERANKER_RATE_LIMIT_BYTES_PER_MINUTE = 2_000_000;
/** Invoice amounts are in cents, shown as USD with two decimals. */
export const INVOICE_CURRENCY = 'USD';
export const INVOICE_DECIMALS = 2;

/** How long a 'copied' confirmation stays (spec §9). */
export const COPY_CONFIRMATION_MS = 2000;
