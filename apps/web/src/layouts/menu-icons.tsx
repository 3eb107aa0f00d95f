import {
  AccountBookOutlined,
  ApiOutlined,
  CodeOutlined,
  CommentOutlined,
  HomeOutlined,
  MessageOutlined,
  NotificationOutlined,
  SettingOutlined,
  TeamOutlined,
  WalletOutlined,
  WhatsAppOutlined,
} from "@ant-design/icons";
import type { ComponentType } from "react";
import type { MenuIconName } from "../routes/types";

/** The icon of every MenuIconName of the route tree (the type makes a missing one a compile error). */
export const menuIcons: Record<MenuIconName, ComponentType> = {
  home: HomeOutlined,
  customer: TeamOutlined,
  rcs: MessageOutlined,
  ws: WhatsAppOutlined,
  sms: CommentOutlined,
  finance: AccountBookOutlined,
  notice: NotificationOutlined,
  product: ApiOutlined,
  setting: SettingOutlined,
  message: MessageOutlined,
  balance: WalletOutlined,
  developer: CodeOutlined,
};
