import { Typography } from "antd";
import { Link } from "react-router-dom";
import { useBranding } from "../features/website/hooks/use-branding";

/** Logo (small logo when collapsed) and title from the website config, linking to the area's home. */
export function Brand({ collapsed = false, to }: { collapsed?: boolean; to: string }) {
  const { title, logo, logoSmall } = useBranding();
  const src = collapsed ? logoSmall : logo;
  return (
    <Link
      to={to}
      aria-label={title}
      style={{ display: "flex", alignItems: "center", gap: 8, height: 64, padding: "0 16px", overflow: "hidden" }}
    >
      {src && <img src={src} alt="" style={{ height: 32, maxWidth: collapsed ? 32 : 160, objectFit: "contain" }} />}
      {!collapsed && (
        <Typography.Text strong ellipsis style={{ color: "#fff", fontSize: 16 }}>
          {title}
        </Typography.Text>
      )}
      {collapsed && !src && (
        <Typography.Text strong style={{ color: "#fff", fontSize: 16 }}>
          {title.slice(0, 1)}
        </Typography.Text>
      )}
    </Link>
  );
}
