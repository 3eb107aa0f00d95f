import { Alert } from "antd";
import { errorText } from "../../../lib/error-text";
import { useT } from "../../../lib/i18n";

/** A failed submit, shown under the form (the message comes from the server, already translated). */
export function ServerError({ error }: { error: unknown }) {
  const t = useT();
  if (!error) return null;
  return (
    <Alert
      data-testid="form-error"
      role="alert"
      type="error"
      showIcon
      title={errorText(error, t)}
      style={{ marginTop: 16 }}
    />
  );
}
