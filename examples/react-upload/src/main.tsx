import { TroveProvider } from "@trove/react";
import "@trove/react/styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.js";
import { readConfig } from "./config.js";
import "./style.css";

const root = createRoot(document.getElementById("root")!);
try {
  const { publicKey, baseUrl, assetsUrl } = readConfig();
  root.render(
    <StrictMode>
      <TroveProvider baseUrl={baseUrl} publicKey={publicKey} assetsUrl={assetsUrl}>
        <App />
      </TroveProvider>
    </StrictMode>,
  );
} catch (error) {
  root.render(<p role="alert">{error instanceof Error ? error.message : String(error)}</p>);
}
