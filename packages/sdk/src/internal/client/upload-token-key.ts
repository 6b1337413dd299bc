import { TroveError } from "../errors.js";
import type { ClientContext } from "./client-context.js";

type TokenGetter = () => string | Promise<string>;

/**
 * The key of a client made with a token getter: called on every key(), so each upload (see
 * perUpload) and each lone multipart call gets a token of its own, and renewKey has nothing to
 * forget. Whatever the getter throws, or returns that is not a token, is TOKEN_UNAVAILABLE with
 * the failure as `cause`. Trimmed: a backend may end its text answer with a newline.
 */
export function tokenGetterKey(getter: TokenGetter): Pick<ClientContext, "key" | "renewKey"> {
  return {
    key: async () => {
      let token: unknown;
      let cause: unknown;
      try {
        token = (await getter()).trim();
      } catch (error) {
        cause = error;
      }
      if (token) return token as string;
      throw new TroveError("token() gave no upload token", { code: "TOKEN_UNAVAILABLE", cause });
    },
    renewKey: () => {},
  };
}

/**
 * One token for every request of one upload (start and complete belong to the same session), got
 * when the first request needs it; renewKey drops it after a 401 (`TOKEN_EXPIRED`). A client
 * with a fixed key or token is returned as it is.
 */
export function perUpload(ctx: ClientContext): ClientContext {
  if (!ctx.renewKey) return ctx;
  let token: string | Promise<string> | undefined;
  return {
    ...ctx,
    key: () => (token ??= ctx.key()),
    renewKey: () => {
      token = undefined;
    },
  };
}
