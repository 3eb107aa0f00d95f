import { App } from "antd";
import { useCallback } from "react";
import { isApiError } from "../lib/api";
import { errorText } from "../lib/error-text";
import { useT } from "../lib/i18n";

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
