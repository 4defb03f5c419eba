import { getEnv } from "../../env.server.ts";
import { getMailer } from "../mail/mailer.server.ts";

/** The reset link goes to our own /reset-password page, valid for one hour and one use. */
export async function sendPasswordResetEmail({
  email,
  name,
  token,
}: {
  email: string;
  name: string;
  token: string;
}): Promise<void> {
  const env = getEnv();
  const link = new URL(`/reset-password?token=${encodeURIComponent(token)}`, env.PUBLIC_URL).toString();
  await getMailer().send({
    to: email,
    subject: `Reset your ${env.SHOP_NAME} password`,
    text: [
      `Hello ${name},`,
      "",
      "Someone (hopefully you) asked to reset the password of your account.",
      `Choose a new password here within the next hour: ${link}`,
      "",
      "If you did not ask for this, ignore this e-mail: your password stays as it is.",
      "",
      `— ${env.SHOP_NAME}`,
    ].join("\n"),
  });
}
