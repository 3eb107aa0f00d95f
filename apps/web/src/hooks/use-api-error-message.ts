import { App } from "antd";
import { useCallback } from "react";
import { isApiError } from "../lib/api";
import { type TFunction, useT } from "../lib/i18n";

/** The text to show for an error thrown by the API client (its message is already translated). */
export function errorText(error: unknown, t: TFunction): string {
  if (isApiError(error)) return error.message;
  return t("error.unknown");
}

/**
 * For features that want a request error shown as a warning toast (spec section 8). A 401 shows
 * nothing: the client has already sent the user to the login page. Works inside the area layouts,
 * which provide antd's <App> (kept out of the public pages to keep the login route small).
 */
export function useApiErrorMessage(): (error: unknown) => void {
  const { message } = App.useApp();
  const t = useT();
  return useCallback(
    (error: unknown) => {
      if (isApiError(error) && error.kind === "unauthorized") return;
      if (!isApiError(error)) console.error(error);
      message.warning(errorText(error, t));
    },
    [message, t],
  );
}
