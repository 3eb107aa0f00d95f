// "Test connection" shows why in the user's language; the API's English detail is secondary text only.
import type { ChannelItem, ChannelTestResult } from "@switchboard/contracts";
import { screen } from "@testing-library/react";
import { App } from "antd";
import { describe, expect, it } from "vitest";
import { TestChannelModal } from "../src/features/channels/components/ChannelActionModals";
import { type Lang, storage } from "../src/lib/storage";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const channel = { id: 7, name: "Gateway", kind: "http", productCode: 3000 } as ChannelItem;

function renderTest(lang: Lang, result: ChannelTestResult) {
  storage.setLang(lang);
  mockFetch({
    "/website/config": { body: envelope({ title: "Switchboard", logo: null, logoSmall: null, description: null }) },
    "POST /channel/test": { body: envelope(result) },
  });
  renderRoutes([{ path: "/", element: <App>{<TestChannelModal channel={channel} onClose={() => {}} />}</App> }], "/");
}

describe("channel test outcome", () => {
  it.each([
    [
      "zh",
      { reason: "bad_port", httpStatus: null, detail: "127.0.0.1:9: the port is reserved for another protocol" },
      "该端口保留给其他协议，不能用于 HTTP 请求",
      "技术信息：127.0.0.1:9: the port is reserved for another protocol",
    ],
    [
      "en",
      { reason: "credentials_refused", httpStatus: 401, detail: "the gateway refused the credentials (HTTP 401)" },
      "The credentials were refused: check the account, password or token",
      "Technical detail: the gateway refused the credentials (HTTP 401)",
    ],
    [
      "zh",
      { reason: "server_error", httpStatus: 503, detail: "the gateway answered with a server error (HTTP 503)" },
      "对方服务出错（HTTP 503）",
      "技术信息：the gateway answered with a server error (HTTP 503)",
    ],
    [
      "zh",
      { reason: "some_future_reason", httpStatus: null, detail: "request to x failed" },
      "请求失败",
      "技术信息：request to x failed",
    ],
  ] as const)("%s: %j", { timeout: 15_000 }, async (lang, why, reason, detail) => {
    renderTest(lang, { ok: false, latencyMs: 3, ...why } as ChannelTestResult);
    expect(await screen.findByTestId("channel-test-reason")).toHaveTextContent(reason);
    expect(screen.getByTestId("channel-test-detail")).toHaveTextContent(detail);
    expect(screen.getByTestId("channel-test-outcome")).toHaveTextContent(
      lang === "zh" ? "连接失败" : "Connection failed",
    );
  });

  it("reads a success in the user's language too", { timeout: 15_000 }, async () => {
    renderTest("zh", {
      ok: true,
      reason: "ok",
      httpStatus: null,
      detail: "bound as transceiver to h:2775",
      latencyMs: 5,
    });
    expect(await screen.findByTestId("channel-test-outcome")).toHaveTextContent("连接成功");
    expect(screen.getByTestId("channel-test-reason")).toHaveTextContent("连接正常");
    expect(screen.getByTestId("channel-test-detail")).toHaveTextContent("bound as transceiver");
  });
});
