// The other half of the fixture cycle (see a.ts).
import type { A } from "./a.js";

export interface B {
  previous?: A;
}
