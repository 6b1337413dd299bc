export function pnpmCommand(root: string): string[];
