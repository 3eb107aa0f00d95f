export * from "./auth";
export * from "./codes";
export * from "./common";
export * from "./messages";
export * from "./money";
export * from "./sms-segments";
