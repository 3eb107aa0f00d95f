import { SMS_MAX_SEGMENTS } from "@switchboard/contracts";
import { countSegmentsWithLinks } from "@switchboard/contracts/links";
import { Typography } from "antd";
import { useMemo } from "react";
import { useWebsiteConfig } from "../../website/api/get-website-config";
import { messages } from "../messages";
import { segmentText } from "../model";

/**
 * The live SMS counter: characters, segments and encoding, red once over the segment limit. A tracked link counts as
 * the short link it is sent as (the deployment's length, from the website config), as the submission counts it.
 */
export function SmsCounter({ text, testId }: { text: string; testId?: string }) {
  const t = messages.useT();
  const linkLength = useWebsiteConfig().data?.shortLinkLength ?? null;
  const count = useMemo(() => countSegmentsWithLinks(text, linkLength), [text, linkLength]);
  return (
    <Typography.Text
      type={count.segments > SMS_MAX_SEGMENTS ? "danger" : "secondary"}
      data-testid={testId}
      aria-live="polite"
    >
      {segmentText(count, t)}
    </Typography.Text>
  );
}
