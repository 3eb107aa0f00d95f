import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { App } from "antd";
import type { ReactNode } from "react";
import { describe, expect, it, vi } from "vitest";
import type { UserInfo } from "../src/features/auth/api/get-user-info";
import { SessionContext } from "../src/features/auth/context/session-context";
import { checkAmount, exceedsBalance } from "../src/features/customers/components/amount";
import { RechargeModal } from "../src/features/customers/components/RechargeModal";
import { UserFormModal } from "../src/features/customers/components/UserFormModal";
import { UserType } from "../src/lib/user-type";
import { type Answer, envelope, mockFetch as mockFetchOnly, renderRoutes } from "./helpers";

const websiteConfig = { body: envelope({ title: "Acme", logo: null, logoSmall: null, description: null }) };
const mockFetch = (answers: Record<string, Answer>) => mockFetchOnly({ "/website/config": websiteConfig, ...answers });

const slow = { timeout: 15_000 };

function me(type: UserType, balance = "0.0000"): UserInfo {
  return {
    id: 2,
    user: type === UserType.AGENT ? "agent" : "admin",
    type,
    tenantId: 1,
    agentId: null,
    balance,
    authStatus: 0,
    nickname: null,
  };
}

function renderWithSession(user: UserInfo, element: ReactNode) {
  return renderRoutes(
    [
      {
        path: "/",
        element: (
          <SessionContext value={{ user }}>
            <App>{element}</App>
          </SessionContext>
        ),
      },
    ],
    "/",
  );
}

const target = { id: 11, user: "customer" };

describe("exceedsBalance", () => {
  it("compares the amount typed with the balance exactly, in money units", () => {
    expect(exceedsBalance("100", "100.0000")).toBe(false);
    expect(exceedsBalance("100.01", "100.0000")).toBe(true);
    expect(exceedsBalance("0.01", "0.0099")).toBe(true);
    expect(exceedsBalance("0.01", "-5.0000")).toBe(true);
    expect(exceedsBalance("abc", "1.0000")).toBe(false);
    expect(exceedsBalance("5", undefined)).toBe(false);
  });
});

describe("checkAmount", () => {
  it("accepts positive amounts with at most 2 decimals up to 100,000,000", () => {
    expect(checkAmount("12.5")).toBeNull();
    expect(checkAmount("0.01")).toBeNull();
    expect(checkAmount(" 100000000 ")).toBeNull();
    expect(checkAmount("")).toBe("required");
    expect(checkAmount("0")).toBe("invalid");
    expect(checkAmount("-1")).toBe("invalid");
    expect(checkAmount("1e3")).toBe("invalid");
    expect(checkAmount("abc")).toBe("invalid");
    expect(checkAmount("1.234")).toBe("decimals");
    expect(checkAmount("1.2345")).toBe("decimals");
    expect(checkAmount("100000000.01")).toBe("max");
    expect(checkAmount("1000000000000")).toBe("max");
  });
});

describe("recharge modal", () => {
  it("validates the amount before anything is sent", slow, async () => {
    const { requests } = mockFetch({ "/user/info": { body: envelope(me(UserType.ADMIN)) } });
    renderWithSession(me(UserType.ADMIN), <RechargeModal action="recharge" open target={target} onClose={() => {}} />);
    const amount = await screen.findByTestId("balance-amount");

    await userEvent.click(screen.getByTestId("balance-submit"));
    expect(await screen.findByText("请输入金额")).toBeInTheDocument();

    await userEvent.type(amount, "12.345");
    expect(await screen.findByText("金额最多 2 位小数")).toBeInTheDocument();

    await userEvent.clear(amount);
    await userEvent.type(amount, "0");
    expect(await screen.findByText("请输入大于 0 的数字金额")).toBeInTheDocument();

    await userEvent.clear(amount);
    await userEvent.type(amount, "abc");
    expect(await screen.findByText("请输入大于 0 的数字金额")).toBeInTheDocument();

    await userEvent.clear(amount);
    await userEvent.type(amount, "200000000");
    expect(await screen.findByText("金额不能超过 100,000,000.00")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId("balance-submit"));
    expect(requests.filter((r) => r.url.pathname === "/finance/recharge")).toHaveLength(0);
  });

  it("posts the recharge and closes", slow, async () => {
    const onClose = vi.fn();
    const { requests } = mockFetch({
      "/user/info": { body: envelope(me(UserType.ADMIN)) },
      "POST /finance/recharge": {
        body: envelope({ logId: "9", userId: 11, balance: "1012.5000", agentBalance: null }),
      },
    });
    renderWithSession(me(UserType.ADMIN), <RechargeModal action="recharge" open target={target} onClose={onClose} />);
    await userEvent.type(await screen.findByTestId("balance-amount"), "12.5");
    await userEvent.type(screen.getByTestId("balance-remark"), "May top-up");
    await userEvent.click(screen.getByTestId("balance-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = requests.find((r) => r.url.pathname === "/finance/recharge");
    expect(post?.method).toBe("POST");
    expect(post?.body).toMatchObject({ userId: 11, amount: "12.5", remark: "May top-up" });
    expect(await screen.findByText("操作成功，customer 当前余额 1,012.50")).toBeInTheDocument();
  });

  it("shows the agent its balance and the server's refusal when it is short, and stays open", slow, async () => {
    const onClose = vi.fn();
    // The balance went down since the modal read it: the server's check has the last word.
    const refusal = "代理商余额不足，当前余额 0.00，请先充值";
    mockFetch({
      "/user/info": { body: envelope(me(UserType.AGENT, "3.5000")) },
      "POST /finance/recharge": { status: 402, body: envelope(null, 1, refusal) },
    });
    renderWithSession(me(UserType.AGENT), <RechargeModal action="recharge" open target={target} onClose={onClose} />);
    const hint = await screen.findByTestId("balance-agent-hint");
    await waitFor(() => expect(hint).toHaveTextContent("您的当前余额：3.50"));
    await userEvent.type(screen.getByTestId("balance-amount"), "2.5");
    await userEvent.click(screen.getByTestId("balance-submit"));
    expect(await screen.findByTestId("balance-error")).toHaveTextContent(refusal);
    expect(onClose).not.toHaveBeenCalled();
    // Changing the form clears the stale error.
    await userEvent.type(screen.getByTestId("balance-amount"), "0");
    await waitFor(() => expect(screen.queryByTestId("balance-error")).not.toBeInTheDocument());
  });

  it.each(["recharge", "gift"] as const)(
    "refuses an agent's %s above its own balance before sending, and sends one within it",
    slow,
    async (action) => {
      const onClose = vi.fn();
      const path = action === "gift" ? "/user/gift/send" : "/finance/recharge";
      const { requests } = mockFetch({
        "/user/info": { body: envelope(me(UserType.AGENT, "1234.5000")) },
        [`POST ${path}`]: { body: envelope({ logId: "9", userId: 11, balance: "1234.50", agentBalance: "0.0000" }) },
      });
      renderWithSession(me(UserType.AGENT), <RechargeModal action={action} open target={target} onClose={onClose} />);
      await waitFor(() => expect(screen.getByTestId("balance-agent-hint")).toHaveTextContent("1,234.50"));
      const amount = screen.getByTestId("balance-amount");
      await userEvent.type(amount, "1234.51");
      expect(await screen.findByText("金额超过您的当前余额 1,234.50，请先为自己的账户充值")).toBeInTheDocument();
      await userEvent.click(screen.getByTestId("balance-submit"));
      expect(requests.filter((r) => r.url.pathname === path)).toHaveLength(0);

      await userEvent.clear(amount);
      await userEvent.type(amount, "1234.5");
      await userEvent.click(screen.getByTestId("balance-submit"));
      await waitFor(() => expect(onClose).toHaveBeenCalled());
      expect(requests.find((r) => r.url.pathname === path)?.body).toMatchObject({ userId: 11, amount: "1234.5" });
    },
  );

  it("does not hold an agent's deduct or an admin's recharge to the caller's balance", slow, async () => {
    mockFetch({ "/user/info": { body: envelope(me(UserType.AGENT, "1.0000")) } });
    const agent = renderWithSession(
      me(UserType.AGENT),
      <RechargeModal action="deduct" open target={target} onClose={() => {}} />,
    );
    await userEvent.type(await screen.findByTestId("balance-amount"), "50");
    await userEvent.type(screen.getByTestId("balance-remark"), "wrong top-up");
    await userEvent.click(screen.getByTestId("balance-submit"));
    expect(screen.queryByTestId("balance-agent-hint")).toBeNull();
    expect(screen.queryByText(/金额超过您的当前余额/)).toBeNull();
    agent.unmount();

    const { requests } = mockFetch({
      "/user/info": { body: envelope(me(UserType.ADMIN, "0.0000")) },
      "POST /finance/recharge": { body: envelope({ logId: "9", userId: 11, balance: "50.00", agentBalance: null }) },
    });
    renderWithSession(me(UserType.ADMIN), <RechargeModal action="recharge" open target={target} onClose={() => {}} />);
    await userEvent.type(await screen.findByTestId("balance-amount"), "50");
    await userEvent.click(screen.getByTestId("balance-submit"));
    await waitFor(() => expect(requests.some((r) => r.url.pathname === "/finance/recharge")).toBe(true));
  });

  it("asks a deduct for its reason", slow, async () => {
    const { requests } = mockFetch({ "/user/info": { body: envelope(me(UserType.ADMIN)) } });
    renderWithSession(me(UserType.ADMIN), <RechargeModal action="deduct" open target={target} onClose={() => {}} />);
    await userEvent.type(await screen.findByTestId("balance-amount"), "5");
    await userEvent.click(screen.getByTestId("balance-submit"));
    expect(await screen.findByText("请填写扣款原因")).toBeInTheDocument();
    expect(requests.filter((r) => r.url.pathname === "/finance/deduct")).toHaveLength(0);
  });
});

const createdRow = {
  id: 30,
  tenantId: 1,
  user: "newone",
  type: 3,
  status: 1,
  nickname: null,
  company: "ACME",
  email: null,
  phone: null,
  remark: null,
  agentId: 2,
  agentUser: "agent",
  balance: "0.0000",
  authStatus: 0,
  authRequirement: 0,
  authExemptUntil: null,
  apiEnabled: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  lastLoginAt: null,
};

describe("user create form", () => {
  it("lets an agent create customers only, validates, and posts the contract's fields", slow, async () => {
    const onClose = vi.fn();
    const { requests } = mockFetch({ "POST /user/create": { body: envelope(createdRow) } });
    renderWithSession(me(UserType.AGENT), <UserFormModal open onClose={onClose} />);
    const typeGroup = await screen.findByTestId("user-form-type");
    expect(typeGroup).toHaveTextContent("客户");
    expect(typeGroup).not.toHaveTextContent("代理商");
    expect(typeGroup).not.toHaveTextContent("管理员");
    expect(screen.queryByTestId("user-form-agent")).not.toBeInTheDocument();

    await userEvent.click(screen.getByTestId("user-form-submit"));
    expect(await screen.findByText("请输入用户名")).toBeInTheDocument();
    expect(screen.getByText("请输入密码")).toBeInTheDocument();

    await userEvent.type(screen.getByTestId("user-form-username"), "new one");
    expect(await screen.findByText("用户名只能包含字母、数字和 _ . @ -")).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId("user-form-username"));
    await userEvent.type(screen.getByTestId("user-form-username"), "newone");
    await userEvent.type(screen.getByTestId("user-form-password"), "onlyletters");
    expect(await screen.findByText("密码须同时包含字母和数字")).toBeInTheDocument();
    await userEvent.clear(screen.getByTestId("user-form-password"));
    await userEvent.type(screen.getByTestId("user-form-password"), "Secret1234");
    await userEvent.type(screen.getByTestId("user-form-email"), "not-an-email");
    await userEvent.click(screen.getByTestId("user-form-submit"));
    expect(await screen.findByText("请输入有效的邮箱地址")).toBeInTheDocument();
    expect(requests.filter((r) => r.url.pathname === "/user/create")).toHaveLength(0);

    await userEvent.clear(screen.getByTestId("user-form-email"));
    await userEvent.type(screen.getByTestId("user-form-company"), "ACME");
    await userEvent.click(screen.getByTestId("user-form-submit"));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = requests.find((r) => r.url.pathname === "/user/create");
    expect(post?.body).toEqual({
      type: 3,
      username: "newone",
      password: "Secret1234",
      company: "ACME",
      authRequirement: 0,
    });
  });

  it(
    "lets an admin create an agent, without the customer-only fields, and shows the server's refusal",
    slow,
    async () => {
      const onClose = vi.fn();
      const { requests } = mockFetch({
        "POST /user/create": { status: 409, body: envelope(null, 1, "用户名已被使用") },
      });
      renderWithSession(me(UserType.ADMIN), <UserFormModal open onClose={onClose} />);
      expect(await screen.findByTestId("user-form-agent")).toBeInTheDocument();
      await userEvent.click(screen.getByLabelText("代理商"));
      await waitFor(() => expect(screen.queryByTestId("user-form-agent")).not.toBeInTheDocument());
      expect(screen.queryByText("认证要求")).not.toBeInTheDocument();
      await userEvent.type(screen.getByTestId("user-form-username"), "agent2");
      await userEvent.type(screen.getByTestId("user-form-password"), "Agent12345");
      await userEvent.click(screen.getByTestId("user-form-submit"));
      expect(await screen.findByTestId("user-form-error")).toHaveTextContent("用户名已被使用");
      expect(onClose).not.toHaveBeenCalled();
      expect(requests.find((r) => r.url.pathname === "/user/create")?.body).toEqual({
        type: 2,
        username: "agent2",
        password: "Agent12345",
      });
    },
  );
});
