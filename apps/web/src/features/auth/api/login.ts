import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api";
import { type Credentials, type LoginResult, parseLoginResult } from "./types";

/** POST /auth/login: customers (the customer app's /login and the RCS portal's /control/login). */
export function login(body: Credentials): Promise<LoginResult> {
  return api.post<unknown>("/auth/login", { ...body }).then(parseLoginResult);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
