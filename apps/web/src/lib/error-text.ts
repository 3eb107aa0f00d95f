import { isApiError } from "./api";
import type { TFunction } from "./i18n";

/**
 * The text to show for an error thrown by the API client (its message is already translated). Kept apart from
 * the toast hook, which needs antd's App: the login page uses this and must stay small.
 */
export function errorText(error: unknown, t: TFunction): string {
  if (isApiError(error)) return error.message;
  return t("error.unknown");
}
