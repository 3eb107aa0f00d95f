import { SMS_MAX_SEGMENTS } from "@switchboard/contracts";
import { countSegments } from "@switchboard/contracts/sms-segments";
import { Typography } from "antd";
import { useMemo } from "react";
import { messages } from "../messages";
import { segmentText } from "../model";

/** The live SMS counter: characters, segments and encoding, red once over the segment limit. */
export function SmsCounter({ text, testId }: { text: string; testId?: string }) {
  const t = messages.useT();
  const count = useMemo(() => countSegments(text), [text]);
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
