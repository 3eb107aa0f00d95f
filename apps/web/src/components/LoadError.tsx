import { Button, Result } from "antd";
import { errorText } from "../lib/error-text";
import { useT } from "../lib/i18n";

/** A page or list load that failed: the reason and a retry. The one error state of every screen's load. */
export function LoadError({
  error,
  onRetry,
  retrying = false,
  testId = "retry",
}: {
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  /** data-testid of the retry button. */
  testId?: string;
}) {
  const t = useT();
  return (
    <Result
      status="warning"
      title={t("error.loadFailed")}
      subTitle={errorText(error, t)}
      extra={
        <Button type="primary" onClick={onRetry} loading={retrying} data-testid={testId}>
          {t("common.retry")}
        </Button>
      }
    />
  );
}
