import { useEffect, useState } from "react";

type Theme = "system" | "light" | "dark";
const NEXT: Record<Theme, Theme> = { system: "light", light: "dark", dark: "system" };

/**
 * Follows prefers-color-scheme by default (the CSS does, with no script); the toggle pins light
 * or dark by a `data-theme` attribute on <html>. Not persisted: nothing of the console is stored
 * in the browser.
 */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => {
    if (theme === "system") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.setAttribute("data-theme", theme);
  }, [theme]);
  return (
    <button type="button" className="theme-toggle" onClick={() => setTheme(NEXT[theme])}>
      Theme: {theme}
    </button>
  );
}
