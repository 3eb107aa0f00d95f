import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ControlRegisterPage, CustomerRegisterPage } from "../src/features/auth/pages/RegisterPage";
import { storage } from "../src/lib/storage";
import { UserType } from "../src/lib/user-type";
import { envelope, mockFetch, renderRoutes } from "./helpers";

const slow = { timeout: 10_000 };

function renderRegister(path = "/register") {
  return renderRoutes(
    [
      { path: "/register", element: <CustomerRegisterPage /> },
      { path: "/control/register", element: <ControlRegisterPage /> },
      { path: "/app/dashboard", element: <h1>customer home</h1> },
      { path: "/user/home", element: <h1>rcs home</h1> },
    ],
    path,
  );
}

const registered = {
  body: envelope({
    token: "new-token",
    expiresAt: "2026-11-22T00:00:00Z",
    user: { id: 8, user: "bob", type: 3, tenantId: 7 },
  }),
};

async function fillForm() {
  await userEvent.type(screen.getByTestId("register-username"), "bob");
  await userEvent.type(screen.getByTestId("register-password"), "bob-password");
  await userEvent.type(screen.getByTestId("register-confirm-password"), "bob-password");
}

describe("register page", () => {
  it("opens the agreement by default and registers after it is accepted", async () => {
    const { requests } = mockFetch({ "/website/config": { body: envelope(null) }, "POST /auth/register": registered });
    const { router } = renderRegister();

    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("服务协议")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("agreement-accept"));
    await waitFor(() => expect(screen.getByTestId("register-agreement")).toBeChecked());

    await fillForm();
    await userEvent.type(screen.getByLabelText(/邮箱/), "bob@example.com");
    await userEvent.click(screen.getByTestId("register-submit"));

    await waitFor(() => expect(router.state.location.pathname).toBe("/app/dashboard"), slow);
    expect(requests.find((r) => r.url.pathname === "/auth/register")?.body).toEqual({
      username: "bob",
      password: "bob-password",
      email: "bob@example.com",
    });
    expect(storage.getToken()).toBe("new-token");
    expect(storage.getUserType()).toBe(UserType.USER);
  });

  it("refuses to register without the agreement, and reopens it from the form", async () => {
    const { requests } = mockFetch({ "/website/config": { body: envelope(null) } });
    renderRegister();
    await userEvent.click(await screen.findByTestId("agreement-decline"));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await fillForm();
    await userEvent.click(screen.getByTestId("register-submit"));
    expect(await screen.findByText("请先阅读并同意服务协议")).toBeInTheDocument();
    expect(requests.some((r) => r.url.pathname === "/auth/register")).toBe(false);

    await userEvent.click(screen.getByTestId("register-agreement-open"));
    await waitFor(() => expect(screen.getByTestId("agreement-text")).toBeVisible(), slow);
    expect(screen.getByTestId("agreement-text")).toHaveTextContent("消息内容须合法合规");
  });

  it("checks that the passwords match", async () => {
    mockFetch({ "/website/config": { body: envelope(null) } });
    renderRegister("/control/register");
    await userEvent.click(await screen.findByTestId("agreement-accept"));
    await userEvent.type(screen.getByTestId("register-username"), "bob");
    await userEvent.type(screen.getByTestId("register-password"), "bob-password");
    await userEvent.type(screen.getByTestId("register-confirm-password"), "other-password");
    await userEvent.click(screen.getByTestId("register-submit"));
    expect(await screen.findByText("两次输入的密码不一致")).toBeInTheDocument();
  });
});
