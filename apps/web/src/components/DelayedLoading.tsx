import { Spin } from "antd";
import { LOADING_DELAY_MS } from "../lib/constants";

/**
 * A spinner with a text that appears only after LOADING_DELAY_MS (200 ms), so fast loads do not
 * flash. `fullscreen` centres it in the viewport (app boot), otherwise in the content area (pages).
 */
export function DelayedLoading({ text, fullscreen = false }: { text: string; fullscreen?: boolean }) {
  return (
    <div
      style={{
        display: "flex",
        alignItems: "center",
        justifyContent: "center",
        minHeight: fullscreen ? "100vh" : 240,
      }}
    >
      <Spin delay={LOADING_DELAY_MS} size="large" description={text} />
    </div>
  );
}
