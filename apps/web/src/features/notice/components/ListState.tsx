import { Button, Result } from "antd";
import { errorText } from "../../../lib/error-text";
import { useT } from "../../../lib/i18n";

/** A list that could not load: the reason and a retry. */
export function LoadError({ error, retry, retrying }: { error: unknown; retry: () => void; retrying: boolean }) {
  const t = useT();
  return (
    <Result
      status="warning"
      title={t("error.loadFailed")}
      subTitle={errorText(error, t)}
      extra={
        <Button onClick={retry} loading={retrying} data-testid="notice-retry">
          {t("common.retry")}
        </Button>
      }
    />
  );
}
