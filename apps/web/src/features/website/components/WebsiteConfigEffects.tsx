import { useEffect } from "react";
import { useWebsiteConfig } from "../api/get-website-config";
import { useBranding } from "../hooks/use-branding";

function setMeta(name: string, content: string): void {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = name;
    document.head.append(tag);
  }
  tag.content = content;
}

function setFavicon(href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.append(link);
  }
  link.href = href;
}

/**
 * Applies the website config to the document: description meta and favicon (the page title is set
 * per page by RoutePage). Without a config the defaults stay; the failure is logged, not hidden.
 */
export function WebsiteConfigEffects() {
  const { error } = useWebsiteConfig();
  const { description, logoSmall } = useBranding();

  useEffect(() => {
    if (description) setMeta("description", description);
  }, [description]);

  useEffect(() => {
    if (logoSmall) setFavicon(logoSmall);
  }, [logoSmall]);

  useEffect(() => {
    if (error) console.warn("website config could not be loaded; using the default branding", error);
  }, [error]);

  return null;
}
