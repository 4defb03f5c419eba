/** What the forgot/reset password pages say (shared by the pages and the server). */
export const RESET_MESSAGES = {
  requested: "If an account exists for that e-mail address, we have sent it a link to reset the password.",
  invalidEmail: "Please enter a valid e-mail address.",
  tooMany: "Too many requests. Please wait a few minutes and try again.",
  changed: "Your password has been changed. Please sign in with the new password.",
  invalidLink: "This reset link is invalid or has expired. Please ask for a new one.",
  mismatch: "The two passwords do not match.",
  length: "Password must be at least 8 characters.",
  tooLong: "Password can be at most 128 characters.",
} as const;
