import type { Db } from "@switchboard/db";

export type LoginArea = "customer" | "staff";
export type LoginFailure = "bad_credentials" | "frozen" | "locked" | "tenant_unknown";

export interface LoginAttempt {
  tenantId: number | null;
  userId: number | null;
  username: string;
  area: LoginArea;
  ip: string;
  userAgent: string | undefined;
}

/** One login_logs row per attempt, successful or not. */
export async function writeLoginLog(db: Db, a: LoginAttempt, failure?: LoginFailure) {
  await db.loginLog.create({
    data: {
      tenantId: a.tenantId,
      userId: a.userId,
      username: a.username.slice(0, 64),
      area: a.area,
      ip: a.ip.slice(0, 45),
      userAgent: a.userAgent?.slice(0, 500) ?? null,
      success: !failure,
      reason: failure ?? null,
    },
  });
}
