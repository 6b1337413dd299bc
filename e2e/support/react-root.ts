/**
 * Renders a test page's React tree into its `#root` under StrictMode, whose double render and
 * double effects a component must survive (uploads start once, players attach once).
 */
import { createElement, type ReactNode, StrictMode } from "react";
import { createRoot } from "react-dom/client";

export function renderStrict(tree: ReactNode): void {
  const root = document.getElementById("root");
  if (!root) throw new Error("no #root");
  createRoot(root).render(createElement(StrictMode, null, tree));
}
