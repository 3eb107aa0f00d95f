import { render } from "@testing-library/react";
import { ConfigProvider } from "antd";
import { createMemoryRouter, type RouteObject, RouterProvider } from "react-router-dom";
import { type Mock, vi } from "vitest";
import { AppProviders } from "../src/app/providers";
import { createQueryClient } from "../src/lib/query";

export interface RecordedRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

export type Answer = { status?: number; body: unknown } | Error;

export function envelope<T>(data: T, code = 0, message = "ok") {
  return { code, message, data };
}

/**
 * A fetch stand-in: answers by "METHOD /path" (or "/path" for any method); unknown paths answer 404
 * with code 1. Every request is recorded.
 */
export function mockFetch(answers: Record<string, Answer | ((req: RecordedRequest) => Answer)>) {
  const requests: RecordedRequest[] = [];
  const fetchMock: Mock<typeof fetch> = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const method = init?.method ?? "GET";
    const raw = init?.body;
    const body = typeof raw === "string" ? JSON.parse(raw) : raw;
    const req: RecordedRequest = { url, method, headers: new Headers(init?.headers), body };
    requests.push(req);
    const entry = answers[`${method} ${url.pathname}`] ?? answers[url.pathname];
    const answer = typeof entry === "function" ? entry(req) : entry;
    if (answer instanceof Error) throw answer;
    const { status = 200, body: payload } = answer ?? { status: 404, body: envelope(null, 1, "not found") };
    return new Response(typeof payload === "string" ? payload : JSON.stringify(payload), {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { fetchMock, requests };
}

/**
 * Renders routes in a memory router inside the app's providers. Motion is off: happy-dom runs no
 * CSS animations, so antd's enter / leave states would never finish.
 */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const view = render(
    <AppProviders queryClient={createQueryClient()}>
      <ConfigProvider theme={{ token: { motion: false } }}>
        <RouterProvider router={router} />
      </ConfigProvider>
    </AppProviders>,
  );
  return { router, ...view };
}
