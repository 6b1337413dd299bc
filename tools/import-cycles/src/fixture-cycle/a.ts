// Half of the cycle import-cycles.test.ts must find (with b.ts): a type-only import is enough.
import type { B } from "./b.js";

export interface A {
  next?: B;
}
