import { Button } from "antd";
import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router-dom";
import { useT } from "../lib/i18n";

/** Last resort for errors thrown while rendering a route. Kept light: it is part of the first chunk. */
export function RootErrorPage() {
  const t = useT();
  const error = useRouteError();
  useEffect(() => console.error("route error", error), [error]);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <main role="alert" style={{ maxWidth: 560, margin: "15vh auto", padding: "0 16px", textAlign: "center" }}>
      <h1 style={{ fontSize: 20 }}>{t("app.renderFailed")}</h1>
      {detail && <p>{detail}</p>}
      <Button type="primary" onClick={() => window.location.reload()}>
        {t("common.reload")}
      </Button>
    </main>
  );
}
