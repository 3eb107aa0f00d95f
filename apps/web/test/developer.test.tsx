// Developer settings components: the IP whitelist editor checks entries like the API does, and a new secret key
// is shown once (after its modal closes it is nowhere on the page and a refresh needs a confirmation).
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { DeveloperInfoCard } from "../src/features/developer/components/DeveloperInfoCard";
import { IpWhitelistEditor } from "../src/features/developer/components/IpWhitelistEditor";
import { NotifyUrlForm } from "../src/features/developer/components/NotifyUrlForm";
import { checkIpList, isValidIpEntry } from "../src/features/developer/lib/ip-entry";
import { config } from "../src/lib/config";
import { storage } from "../src/lib/storage";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 15_000 };

function renderIn(element: ReactNode) {
  storage.setLang("en");
  return renderRoutes([{ path: "/", element: <App>{element}</App> }], "/");
}

describe("IP entries (the API's rules)", () => {
  it.each([
    "192.0.2.7",
    "0.0.0.0/0",
    "10.0.0.0/8",
    "10.1.2.3/32",
    "2001:db8::1",
    "2001:DB8::/32",
    "::/0",
    "::ffff:192.0.2.1",
    " 203.0.113.0/24 ",
  ])("accepts %s", (entry) => expect(isValidIpEntry(entry)).toBe(true));

  it.each([
    "",
    "abc",
    "256.1.1.1",
    "010.0.0.1",
    "1.2.3",
    "10.0.0.0/33",
    "10.0.0.0/",
    "10.0.0.0/8/9",
    "10.0.0.0/-1",
    "2001:db8::/129",
    "fe80::1%eth0",
    "1:2:3:4:5:6:7:8:9",
    "[::1]",
    "example.com",
  ])("refuses %s", (entry) => expect(isValidIpEntry(entry)).toBe(false));

  it("reports each bad line and more than 50 entries", () => {
    const { entries, problems } = checkIpList("10.0.0.1\n\nnope\n2001:db8::/200\n");
    expect(entries).toEqual(["10.0.0.1", "nope", "2001:db8::/200"]);
    expect(problems).toEqual([
      { kind: "invalid", line: 3, value: "nope" },
      { kind: "invalid", line: 4, value: "2001:db8::/200" },
    ]);
    const many = Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`).join("\n");
    expect(checkIpList(many).problems).toEqual([{ kind: "tooMany", count: 51, max: 50 }]);
    expect(checkIpList(`${"1".repeat(65)}`).problems).toEqual([{ kind: "tooLong", line: 1 }]);
  });
});

describe("IP whitelist editor", () => {
  it("blocks saving while a line is invalid, names the line, and saves the server's canonical list", slow, async () => {
    const { requests } = mockFetch({
      "POST /user/ip/mod": (req) => ({
        body: envelope({ ipWhitelist: (req.body as { ips: string[] }).ips.map((ip) => ip.toLowerCase()) }),
      }),
    });
    renderIn(<IpWhitelistEditor initial={["192.0.2.7"]} />);
    const input = screen.getByLabelText("Whitelist");
    expect(input).toHaveValue("192.0.2.7");
    expect(screen.getByTestId("ip-count")).toHaveTextContent("1 / 50 entries");

    await userEvent.type(input, "\n10.0.0.0/33");
    const errors = await screen.findByTestId("ip-errors");
    expect(errors).toHaveTextContent("line 2: 10.0.0.0/33 is not a valid IPv4/IPv6 address or CIDR range");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByTestId("ip-save")).toBeDisabled();
    // Enter in the form does not send it either.
    expect(requests.filter((r) => r.url.pathname === "/user/ip/mod")).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, "192.0.2.7\n2001:DB8::/32");
    await waitFor(() => expect(screen.queryByTestId("ip-errors")).toBeNull());
    await userEvent.click(screen.getByTestId("ip-save"));
    await waitFor(() => expect(input).toHaveValue("192.0.2.7\n2001:db8::/32"));
    const sent = requests.filter((r) => r.url.pathname === "/user/ip/mod");
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({ ips: ["192.0.2.7", "2001:DB8::/32"] });
  });

  it("refuses a 51st entry and says an empty list allows any address", slow, async () => {
    mockFetch({});
    renderIn(<IpWhitelistEditor initial={Array.from({ length: 51 }, (_, i) => `10.0.1.${i}`)} />);
    expect(await screen.findByTestId("ip-errors")).toHaveTextContent("at most 50 entries, there are 51");
    expect(screen.getByTestId("ip-save")).toBeDisabled();
    await userEvent.clear(screen.getByLabelText("Whitelist"));
    expect(await screen.findByText("The whitelist is empty: any IP address may use your secret key.")).toBeVisible();
    expect(screen.getByTestId("ip-save")).toBeEnabled();
  });
});

const info = {
  apiEnabled: true,
  secretKeyPrefix: "sk_AbCdE",
  secretKeyCreatedAt: "2026-01-02T03:04:05.000Z",
  ipWhitelist: [],
  notifyUrl: null,
};

describe("secret key", () => {
  it("asks before replacing a key, shows the new one once, and forgets it when the modal closes", slow, async () => {
    const secretKey = "sk_TheNewSecretKeyValue1234567890abcdefghijklm";
    const state = { ...info };
    const { requests } = mockFetch({
      "GET /user/developer/info": () => ({ body: envelope(state) }),
      "POST /user/sk/refresh": () => {
        state.secretKeyPrefix = "sk_TheNe";
        return {
          body: envelope({ secretKey, secretKeyPrefix: "sk_TheNe", secretKeyCreatedAt: "2026-02-01T00:00:00.000Z" }),
        };
      },
    });
    renderIn(<DeveloperInfoCard />);
    expect(await screen.findByTestId("secret-key-state")).toHaveTextContent("sk_AbCdE…");

    await userEvent.click(screen.getByTestId("secret-key-refresh"));
    const confirm = await screen.findByRole("dialog", { name: "Replace the secret key?" });
    expect(confirm).toHaveTextContent("The current key stops working at once");
    expect(requests.filter((r) => r.url.pathname === "/user/sk/refresh")).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole("button", { name: "Replace" }));

    const dialog = await screen.findByRole("dialog", { name: "Your new secret key" });
    expect(within(dialog).getByTestId("secret-key-value")).toHaveTextContent(secretKey);
    expect(within(dialog).getByTestId("secret-key-warning")).toHaveTextContent("This key is shown only once");
    expect(requests.filter((r) => r.url.pathname === "/user/sk/refresh")).toHaveLength(1);
    // Esc does not close it: only the explicit button.
    await userEvent.keyboard("{Escape}");
    expect(screen.getByTestId("secret-key-value")).toBeInTheDocument();

    await userEvent.click(screen.getByTestId("secret-key-done"));
    await waitFor(() => expect(screen.queryByTestId("secret-key-value")).toBeNull());
    expect(document.body.textContent).not.toContain(secretKey);
    expect(screen.getByTestId("secret-key-state")).toHaveTextContent("sk_TheNe…");
  });

  it("creates the first key without a confirmation", slow, async () => {
    mockFetch({
      "GET /user/developer/info": { body: envelope({ ...info, secretKeyPrefix: null, secretKeyCreatedAt: null }) },
      "POST /user/sk/refresh": {
        body: envelope({
          secretKey: "sk_first",
          secretKeyPrefix: "sk_first",
          secretKeyCreatedAt: info.secretKeyCreatedAt,
        }),
      },
    });
    renderIn(<DeveloperInfoCard />);
    expect(await screen.findByTestId("secret-key-state")).toHaveTextContent("No secret key yet");
    await userEvent.click(screen.getByTestId("secret-key-refresh"));
    expect(await screen.findByTestId("secret-key-value")).toHaveTextContent("sk_first");
  });

  it("links the API's OpenAPI documentation (Swagger UI at {apiBase}/docs) in a new tab", slow, async () => {
    mockFetch({ "GET /user/developer/info": { body: envelope(info) } });
    renderIn(<DeveloperInfoCard />);
    const link = await screen.findByTestId("api-docs-link");
    expect(link).toHaveAttribute("href", `${config.apiBase}/docs`);
    expect(link).toHaveAttribute("target", "_blank");
    expect(link).toHaveAttribute("rel", "noopener noreferrer");
    expect(link).toHaveTextContent("Online API reference (OpenAPI)");
    expect(screen.getByTestId("developer-info")).toHaveTextContent("“developer API” group");
  });

  it("switches the API and shows a load failure with a retry", slow, async () => {
    let fail = true;
    const state = { ...info };
    const { requests } = mockFetch({
      "GET /user/developer/info": () => (fail ? { body: envelope(null, 1, "boom") } : { body: envelope(state) }),
      "POST /user/api/toggle": (req) => {
        state.apiEnabled = (req.body as { enabled: boolean }).enabled;
        return { body: envelope({ apiEnabled: state.apiEnabled }) };
      },
    });
    renderIn(<DeveloperInfoCard />);
    expect(await screen.findByText("boom")).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(await screen.findByTestId("api-state")).toHaveTextContent("On");
    await userEvent.click(screen.getByTestId("api-toggle"));
    await waitFor(() => expect(screen.getByTestId("api-state")).toHaveTextContent("Off"));
    expect(requests.find((r) => r.url.pathname === "/user/api/toggle")?.body).toMatchObject({ enabled: false });
  });
});

describe("notify URL", () => {
  it("refuses a URL with credentials and reports a test delivery", slow, async () => {
    const { requests } = mockFetch({
      "POST /user/notify/mod": {
        body: envelope({
          notifyUrl: "https://hooks.example.com/cb",
          test: { delivered: false, httpStatus: 500, durationMs: 42, error: "http_500", reason: "server_error" },
        }),
      },
    });
    renderIn(<NotifyUrlForm initial={null} hasKey />);
    const input = screen.getByLabelText("Notify URL");
    await userEvent.type(input, "https://user:pw@hooks.example.com/cb");
    await userEvent.click(screen.getByTestId("notify-test"));
    expect(await screen.findByTestId("notify-error")).toHaveTextContent("Enter an http or https URL");
    expect(requests.filter((r) => r.url.pathname === "/user/notify/mod")).toHaveLength(0);

    await userEvent.clear(input);
    await userEvent.type(input, "https://hooks.example.com/cb");
    await userEvent.click(screen.getByTestId("notify-test"));
    expect(await screen.findByTestId("notify-test-result")).toHaveTextContent(
      "Test callback not delivered: The server answered with an error (HTTP 500) (42 ms)",
    );
    expect(screen.queryByTestId("notify-test-detail")).not.toBeInTheDocument();
    expect(requests.find((r) => r.url.pathname === "/user/notify/mod")?.body).toMatchObject({
      notifyUrl: "https://hooks.example.com/cb",
      test: true,
    });
  });

  it.each([
    [
      "en",
      { error: "address_not_allowed", reason: "address_not_allowed" },
      "Test callback not delivered: This is an internal or reserved address: the platform does not connect to it (0 ms)",
      null,
    ],
    [
      "en",
      { error: "ECONNREFUSED", reason: "connection_refused" },
      "Test callback not delivered: Connection refused: nothing listens on that port, or a firewall rejects it (0 ms)",
      "Technical detail: ECONNREFUSED",
    ],
    [
      "zh",
      { error: "CERT_HAS_EXPIRED", reason: "tls_failed" },
      "测试回调未送达：TLS 握手失败，请检查对方的 HTTPS 证书（0 毫秒）",
      "技术信息：CERT_HAS_EXPIRED",
    ],
    ["zh", { error: "timeout", reason: "timeout" }, "测试回调未送达：对方在限定时间内没有响应（0 毫秒）", null],
  ] as const)(
    "says why a test was not delivered in the user's language (%s: %j)",
    slow,
    async (lang, why, text, detail) => {
      mockFetch({
        "POST /user/notify/mod": {
          body: envelope({
            notifyUrl: "https://hooks.example.com/cb",
            test: { delivered: false, httpStatus: null, durationMs: 0, ...why },
          }),
        },
      });
      storage.setLang(lang);
      renderRoutes(
        [{ path: "/", element: <App>{<NotifyUrlForm initial="https://hooks.example.com/cb" hasKey />}</App> }],
        "/",
      );
      await userEvent.click(screen.getByTestId("notify-test"));
      expect(await screen.findByTestId("notify-test-reason")).toHaveTextContent(text);
      if (detail) expect(screen.getByTestId("notify-test-detail")).toHaveTextContent(detail);
      else expect(screen.queryByTestId("notify-test-detail")).not.toBeInTheDocument();
      expect(screen.getByTestId("notify-test-result").textContent).not.toMatch(
        /address_not_allowed|connection_refused/,
      );
    },
  );
});
