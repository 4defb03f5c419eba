import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

/** The CSP nonce of this response (server) or "" (browser, where it is hidden anyway). */
export function useNonce(): string {
  return useContext(NonceContext);
}
