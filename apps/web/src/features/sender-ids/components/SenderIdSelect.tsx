import { canonicalSenderId } from "@switchboard/contracts";
import { Select, Typography } from "antd";
import { useMemo } from "react";
import { useApprovedSenderIds } from "../api";
import { messages } from "../messages";

export interface SenderIdSelectProps {
  id?: string;
  /** The chosen sender id; "" = none (the channel's default). */
  value: string;
  onChange: (senderId: string) => void;
  "data-testid"?: string;
}

/**
 * The SMS editor's sender: one of the customer's approved sender ids (each with the countries it is approved for),
 * or none. A value that is not approved (a copied task's) is shown as such; the server refuses it at the check.
 */
export function SenderIdSelect({ id, value, onChange, ...rest }: SenderIdSelectProps) {
  const t = messages.useT();
  const approved = useApprovedSenderIds();
  const options = useMemo(() => {
    const countries = new Map<string, Array<string | null>>();
    for (const row of approved.data?.list ?? []) {
      countries.set(row.senderId, [...(countries.get(row.senderId) ?? []), row.countryCode]);
    }
    const choices = [...countries.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([senderId, codes]) => ({
        value: senderId,
        label: `${senderId} · ${
          codes.includes(null) ? t("select.allCountries") : [...new Set(codes)].sort().join(", ")
        }`,
      }));
    const chosen = value.trim();
    if (chosen !== "" && !countries.has(chosen) && !countries.has(canonicalSenderId(chosen))) {
      choices.unshift({ value: chosen, label: t("select.notApproved", { senderId: chosen }) });
    }
    return [{ value: "", label: t("select.none") }, ...choices];
  }, [approved.data, value, t]);

  return (
    <>
      <Select
        id={id}
        value={value}
        onChange={(senderId: string) => onChange(senderId)}
        options={options}
        loading={approved.isLoading}
        style={{ maxWidth: 320, width: "100%" }}
        data-testid={rest["data-testid"]}
      />
      <Typography.Text type="secondary" style={{ display: "block", marginTop: 4 }}>
        {approved.isError ? t("select.loadFailed") : t("select.hint")}{" "}
        {/* A new tab: the task being written stays open here. */}
        <Typography.Link href="/app/sender-ids" target="_blank" rel="noopener" data-testid="sender-id-request-link">
          {t("select.request")}
        </Typography.Link>
      </Typography.Text>
    </>
  );
}
