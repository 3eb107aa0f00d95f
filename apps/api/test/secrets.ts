// This run's secrets, made by the global setup: every test config takes them (there is no default in the code).
import { inject } from "vitest";

export const testSecrets = () => ({ JWT_SECRET: inject("jwtSecret"), CHANNEL_SECRET_KEY: inject("channelSecretKey") });
