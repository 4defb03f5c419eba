import { describe, expect, it } from "vitest";
import { actorCan, can, PERMISSIONS, STAFF_ROLES } from "./staff-roles.ts";

describe("actorCan", () => {
  it("asks the role for a staff member", () => {
    for (const role of STAFF_ROLES) {
      for (const permission of PERMISSIONS)
        expect(actorCan({ role }, permission)).toBe(can(role, permission));
    }
  });

  it("asks only the grants for an API key, whatever its role says", () => {
    const key = { role: "customer" as const, grants: ["orders" as const] };
    expect(PERMISSIONS.filter((permission) => actorCan(key, permission))).toEqual(["orders"]);
    // grants set: an owner's role adds nothing
    expect(actorCan({ role: "owner", grants: [] }, "settings")).toBe(false);
  });
});
