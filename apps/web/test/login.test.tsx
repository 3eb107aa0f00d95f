import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ControlLoginPage, CustomerLoginPage, StaffLoginPage } from "../src/features/auth/pages/LoginPage";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 10_000 };

function renderLogin(path = "/login") {
  return renderRoutes(
    [
      { path: "/login", element: <CustomerLoginPage /> },
      { path: "/control/login", element: <ControlLoginPage /> },
      { path: "/system/login", element: <StaffLoginPage /> },
      { path: "/app/dashboard", element: <h1>customer home</h1> },
      { path: "/user/home", element: <h1>rcs home</h1> },
      { path: "/backend/dashboard", element: <h1>backend home</h1> },
    ],
    path,
  );
}

function loginAnswer(type: UserType, tenantId: number | null = 7) {
  return {
    body: envelope({
      token: `token-${type}`,
      expiresAt: "2026-11-22T00:00:00.000Z",
      user: { id: 5, user: "alice", type, tenantId },
    }),
  };
}

const websiteConfig = { body: envelope({ title: "Acme Messaging", logo: null, logoSmall: null, description: null }) };

describe("login page", () => {
  it("renders labelled inputs and a submit button", async () => {
    mockFetch({ "/website/config": websiteConfig });
    renderLogin();
    expect(await screen.findByRole("heading", { name: "用户登录" })).toBeInTheDocument();
    expect(screen.getByLabelText("用户名")).toBe(screen.getByTestId("login-username"));
    expect(screen.getByLabelText("密码")).toBe(screen.getByTestId("login-password"));
    expect(screen.getByTestId("login-submit")).toHaveTextContent("登 录");
    expect(screen.getByRole("link", { name: "立即注册" })).toHaveAttribute("href", "/register");
    expect(await screen.findByText("Acme Messaging")).toBeInTheDocument();
  });

  it("validates required fields in Chinese", async () => {
    const { requests } = mockFetch({ "/website/config": websiteConfig });
    renderLogin();
    await userEvent.click(await screen.findByTestId("login-submit"));
    expect(await screen.findByText("请输入用户名")).toBeInTheDocument();
    expect(screen.getByText("请输入密码")).toBeInTheDocument();
    expect(requests.filter((r) => r.url.pathname.startsWith("/auth"))).toHaveLength(0);
  });

  it("validates required fields and lengths in English", async () => {
    storage.setLang("en");
    mockFetch({ "/website/config": websiteConfig });
    renderLogin();
    await userEvent.click(await screen.findByRole("button", { name: "Log in" }));
    expect(await screen.findByText("Please enter the username")).toBeInTheDocument();
    expect(screen.getByText("Please enter the password")).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText("Username"), "ab");
    await userEvent.type(screen.getByLabelText("Password"), "short");
    expect(await screen.findByText("The username must be 3-64 characters")).toBeInTheDocument();
    expect(await screen.findByText("The password must be 8-128 characters")).toBeInTheDocument();
  });

  it("switches the language from the switch", async () => {
    mockFetch({ "/website/config": websiteConfig });
    renderLogin();
    await userEvent.click(await screen.findByText("English"));
    expect(await screen.findByRole("heading", { name: "Log in" })).toBeInTheDocument();
    expect(storage.getLang()).toBe("en");
  });

  it("submits with Enter, stores the session and goes to the customer home", async () => {
    const { requests } = mockFetch({
      "/website/config": websiteConfig,
      "POST /auth/login": loginAnswer(UserType.USER),
    });
    const { router } = renderLogin();
    await userEvent.type(await screen.findByTestId("login-username"), "  alice ");
    await userEvent.type(screen.getByTestId("login-password"), "correct horse{Enter}");

    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"), slow);
    const login = requests.find((r) => r.url.pathname === "/auth/login");
    expect(login?.method).toBe("POST");
    expect(login?.body).toEqual({ username: "alice", password: "correct horse" });
    expect(storage.getToken()).toBe("token-3");
    expect(storage.getUserType()).toBe(UserType.USER);
    expect(storage.getTenantId()).toBe("7");
  });

  it("lands RCS portal users on /user/home", async () => {
    mockFetch({ "/website/config": websiteConfig, "POST /auth/login": loginAnswer(UserType.USER) });
    const { router } = renderLogin("/control/login");
    await userEvent.type(await screen.findByTestId("login-username"), "alice");
    await userEvent.type(screen.getByTestId("login-password"), "correct horse");
    await userEvent.click(screen.getByTestId("login-submit"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/user/home"), slow);
  });

  it("logs staff in through /auth/staff/login, in Chinese, to the back office", async () => {
    storage.setLang("en");
    const { requests } = mockFetch({
      "/website/config": websiteConfig,
      "POST /auth/staff/login": loginAnswer(UserType.AGENT),
    });
    const { router } = renderLogin("/system/login");
    await userEvent.type(await screen.findByTestId("login-username"), "agent01");
    await userEvent.type(screen.getByTestId("login-password"), "agent-password");
    await userEvent.click(screen.getByTestId("login-submit"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/backend/dashboard"), slow);
    expect(requests.some((r) => r.url.pathname === "/auth/staff/login")).toBe(true);
    expect(storage.getUserType()).toBe(UserType.AGENT);
    expect(storage.getLang()).toBe("zh");
  });

  it("shows the server's message under the form and stays on the page", async () => {
    mockFetch({
      "/website/config": websiteConfig,
      "POST /auth/login": { status: 400, body: envelope(null, 1, "用户名或密码错误") },
    });
    const { router } = renderLogin();
    await userEvent.type(await screen.findByTestId("login-username"), "alice");
    await userEvent.type(screen.getByTestId("login-password"), "wrong password");
    await userEvent.click(screen.getByTestId("login-submit"));
    expect(await screen.findByRole("alert")).toHaveTextContent("用户名或密码错误");
    expect(router.state.location.pathname).toBe("/login");
    expect(storage.getToken()).toBeNull();
  });

  it("shows 'server request failed (501)' when the server cannot be reached", async () => {
    mockFetch({ "/website/config": websiteConfig, "POST /auth/login": new TypeError("Failed to fetch") });
    renderLogin();
    await userEvent.type(await screen.findByTestId("login-username"), "alice");
    await userEvent.type(screen.getByTestId("login-password"), "correct horse");
    await userEvent.click(screen.getByTestId("login-submit"));
    expect(await screen.findByRole("alert")).toHaveTextContent("服务器请求失败（501）");
  });
});
