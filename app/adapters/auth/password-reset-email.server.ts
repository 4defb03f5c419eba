import type { Mailer } from "../mail/mail-message.ts";

/** The reset link goes to our own /reset-password page, valid for one hour and one use. */
export async function sendPasswordResetEmail(
  mailer: Mailer,
  env: { shopName: string; publicUrl: string },
  { email, name, token }: { email: string; name: string; token: string },
): Promise<void> {
  const link = new URL(`/reset-password?token=${encodeURIComponent(token)}`, env.publicUrl).toString();
  await mailer.send({
    to: email,
    subject: `Reset your ${env.shopName} password`,
    text: [
      `Hello ${name},`,
      "",
      "Someone (hopefully you) asked to reset the password of your account.",
      `Choose a new password here within the next hour: ${link}`,
      "",
      "If you did not ask for this, ignore this e-mail: your password stays as it is.",
      "",
      `— ${env.shopName}`,
    ].join("\n"),
  });
}
