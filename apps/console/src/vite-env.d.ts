/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_TROVE_PUBLIC_KEY?: string;
  readonly VITE_TROVE_BASE_URL?: string;
  readonly VITE_TROVE_ASSETS_URL?: string;
}
