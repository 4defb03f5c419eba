import { createContext } from "react-router";

/** Per-request values the HTTP server hands to loaders, actions and the document renderer. */
export interface RequestInfo {
  /** CSP nonce for inline scripts; empty when no CSP is sent (development server). */
  nonce: string;
  requestId: string;
}

export const requestInfoContext = createContext<RequestInfo>({ nonce: "", requestId: "" });
