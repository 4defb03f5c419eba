/** What the staff invitation's page (/staff/join) says (shared by the page and the server). */
export const JOIN_MESSAGES = {
  invalidLink:
    "This invitation link does not work: it was cancelled, replaced by a newer invitation, already used, or it has expired. Ask the shop owner to invite you again.",
  joined: "You have joined the staff. Please sign in with your new password.",
} as const;
