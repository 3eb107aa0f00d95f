// Whether a new batch waits for review (DOMAIN.md, issue 5), from the tenant's system settings:
//   - content hitting a sensitive word (case-insensitive, anywhere in the text) always goes to review;
//   - otherwise an exempt customer (authentication requirement 1) never does;
//   - otherwise review mode 0 never, 1 always, 2 when the batch has more than reviewThreshold recipients.
// Pure, so it is tested by table.
import { AuthRequirement, ReviewMode } from "@switchboard/contracts";

export interface ReviewSettings {
  reviewMode: number;
  reviewThreshold: number;
  sensitiveWords: readonly string[];
}

/** The defaults of tenant_settings, for a tenant that never saved its settings. */
export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  reviewMode: ReviewMode.ALL,
  reviewThreshold: 1000,
  sensitiveWords: [],
};

/** The first sensitive word the text contains, or null. */
export function sensitiveWordIn(text: string, words: readonly string[]): string | null {
  const haystack = text.toLowerCase();
  for (const w of words) {
    const needle = w.trim().toLowerCase();
    if (needle && haystack.includes(needle)) return w;
  }
  return null;
}

export function needsReview(
  settings: ReviewSettings,
  customer: { authRequirement: number },
  contentText: string,
  recipients: number,
): boolean {
  if (sensitiveWordIn(contentText, settings.sensitiveWords) !== null) return true;
  if (customer.authRequirement === AuthRequirement.EXEMPT) return false;
  switch (settings.reviewMode) {
    case ReviewMode.NEVER:
      return false;
    case ReviewMode.ABOVE_THRESHOLD:
      return recipients > settings.reviewThreshold;
    default:
      return true;
  }
}
