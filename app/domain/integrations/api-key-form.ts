/** The API keys page's texts and limits (shared by the server and the page). */
export const API_KEY_LIMITS = { nameMax: 80 } as const;

export const API_KEY_LABELS = {
  name: "Key name",
  kind: "Kind",
  scopes: "Scopes",
  expiresOn: "Expires on (optional)",
} as const;

export const API_KEY_KIND_LABELS = {
  secret: "Secret key (Admin API, within its scopes)",
  publishable: "Publishable key (Store API: catalogue and cart)",
} as const;

export const API_KEY_MESSAGES = {
  invalid: "Please correct the errors below.",
  name: `Enter a name of 1–${API_KEY_LIMITS.nameMax} characters.`,
  scopes: "Choose at least one scope for a secret key.",
  expiresOn: "Enter a date from today on, or leave it empty.",
  created: (name: string) => `API key ${name} created.`,
  revoked: (name: string) => `API key ${name} revoked.`,
  alreadyRevoked: "That key was already revoked.",
  notFound: "That key no longer exists.",
  unconfirmed: "No key was revoked: confirm with “Yes, revoke” to revoke it.",
} as const;
