import { Button, Result } from "antd";
import { errorText } from "../../../lib/error-text";
import { useT } from "../../../lib/i18n";

/** A page load that failed: the error and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const t = useT();
  return (
    <Result
      status="warning"
      title={t("error.loadFailed")}
      subTitle={errorText(error, t)}
      extra={
        <Button type="primary" onClick={onRetry} data-testid="retry">
          {t("common.retry")}
        </Button>
      }
    />
  );
}
