// The one rule the batch issue enforces: may this customer submit message batches now, as far as identity
// authentication is concerned? Pure (the caller passes the user row and the clock), so it is tested by table.
import { AccountStatus, AuthRequirement, AuthStatus, type MessageKey } from "@switchboard/contracts";

export interface AuthenticationSubject {
  status: number;
  authStatus: number;
  authRequirement: number;
  authExemptUntil: Date | null;
}

export type SubmitDecision = { allowed: true } | { allowed: false; reason: MessageKey };

/**
 * Allowed when the customer is exempt (requirement 1), authenticated (status 2), or inside a seven-day grant
 * (authExemptUntil later than now). A frozen account never submits, whatever else holds.
 * The refusal names what the customer can do about it.
 */
export function canSubmitBatches(user: AuthenticationSubject, now: Date): SubmitDecision {
  if (user.status !== AccountStatus.NORMAL) return { allowed: false, reason: "auth.frozen" };
  if (user.authRequirement === AuthRequirement.EXEMPT) return { allowed: true };
  if (user.authStatus === AuthStatus.AUTHENTICATED) return { allowed: true };
  if (user.authExemptUntil && user.authExemptUntil.getTime() > now.getTime()) return { allowed: true };
  switch (user.authStatus) {
    case AuthStatus.AUTHENTICATING:
      return { allowed: false, reason: "authentication.submit_pending_review" };
    case AuthStatus.REJECTED:
      return { allowed: false, reason: "authentication.submit_rejected" };
    default:
      return {
        allowed: false,
        reason: user.authExemptUntil ? "authentication.submit_exemption_expired" : "authentication.submit_required",
      };
  }
}
