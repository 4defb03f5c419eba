/** The name the header shows: the display name, else the part of the e-mail before the @. */
export function displayName(user: { name?: string | null; email: string }): string {
  const name = user.name?.trim();
  if (name) return name;
  const local = user.email.split("@")[0]?.trim();
  return local || user.email;
}
