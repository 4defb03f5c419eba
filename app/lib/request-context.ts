import { createContext } from "react-router";

/** Per-request values the HTTP server hands to loaders, actions and the document renderer. */
export interface RequestInfo {
  /** CSP nonce for inline scripts; empty when no CSP is sent (development server). */
  nonce: string;
  requestId: string;
  /** the visitor's IP address (for rate limits); "unknown" when the server cannot tell */
  clientIp: string;
}

export const requestInfoContext = createContext<RequestInfo>({
  nonce: "",
  requestId: "",
  clientIp: "unknown",
});
