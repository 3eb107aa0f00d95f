import type { ConnectionReason } from "@switchboard/contracts";
import { Typography } from "antd";
import { messages } from "./messages";

/** A connection test's reason code in the user's language (an unknown code reads as "the request failed"). */
export function useReasonText(): (reason: ConnectionReason | string, httpStatus?: number | null) => string {
  const t = messages.useT();
  return (reason, httpStatus) => {
    const key = `reason.${reason}` as const;
    const known = key in messages.texts.en ? (key as `reason.${ConnectionReason}`) : "reason.request_failed";
    return t(known, { status: httpStatus ?? "-" });
  };
}

/** The API's technical account (English, host and codes), as small secondary text under the translated reason. */
export function TechnicalDetail({ detail, testId }: { detail: string | null | undefined; testId?: string }) {
  const t = messages.useT();
  if (!detail) return null;
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={testId}>
      {t("detail.label", { detail })}
    </Typography.Text>
  );
}
