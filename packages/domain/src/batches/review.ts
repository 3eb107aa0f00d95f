// Whether a new batch waits for review (DOMAIN.md, issue 5), from the tenant's system settings:
//   - content hitting a sensitive word (case-insensitive, anywhere in the text) always goes to review;
//   - otherwise an exempt customer (authentication requirement 1) never does;
//   - otherwise review mode 0 never, 1 always, 2 when the batch has more than reviewThreshold recipients.
// reviewReasons says which of these held a batch (stored with it for the reviewer); needsReview is whether any
// did. Pure, so it is tested by table.
import { AuthRequirement, REVIEW_REASON_WORDS_MAX, ReviewMode, type ReviewReason } from "@switchboard/contracts";

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

/** The sensitive words the text contains (as the admin spelled them, at most REVIEW_REASON_WORDS_MAX). */
export function sensitiveWordsIn(text: string, words: readonly string[]): string[] {
  const haystack = text.toLowerCase();
  const found: string[] = [];
  for (const w of words) {
    const needle = w.trim().toLowerCase();
    if (needle && haystack.includes(needle)) found.push(w.trim());
    if (found.length === REVIEW_REASON_WORDS_MAX) break;
  }
  return found;
}

/** Every rule that holds this batch for review; empty when it goes without. */
export function reviewReasons(
  settings: ReviewSettings,
  customer: { authRequirement: number },
  contentText: string,
  recipients: number,
): ReviewReason[] {
  const reasons: ReviewReason[] = [];
  const words = sensitiveWordsIn(contentText, settings.sensitiveWords);
  if (words.length > 0) reasons.push({ kind: "sensitive_word", words });
  if (customer.authRequirement === AuthRequirement.EXEMPT) return reasons;
  switch (settings.reviewMode) {
    case ReviewMode.NEVER:
      break;
    case ReviewMode.ABOVE_THRESHOLD:
      if (recipients > settings.reviewThreshold) {
        reasons.push({ kind: "above_threshold", threshold: settings.reviewThreshold, recipients });
      }
      break;
    default:
      reasons.push({ kind: "review_all" });
  }
  return reasons;
}

export function needsReview(
  settings: ReviewSettings,
  customer: { authRequirement: number },
  contentText: string,
  recipients: number,
): boolean {
  return reviewReasons(settings, customer, contentText, recipients).length > 0;
}
