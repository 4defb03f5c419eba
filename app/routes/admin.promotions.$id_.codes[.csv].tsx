import { data } from "react-router";
import { positiveInt } from "../components/admin/admin-meta.ts";
import { servicesFrom } from "../context.ts";
import { exportCodesCsv } from "../domain/promotions/promotion-codes.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.promotions.$id_.codes[.csv]";

/** A promotion's single-use codes as CSV (code, used_at, order_number), streamed in batches. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "discounts");
  const id = positiveInt(params.id);
  const { db } = servicesFrom(context);
  const promotion = id
    ? await db.selectFrom("promotions").select("id").where("id", "=", id).executeTakeFirst()
    : undefined;
  if (!id || !promotion) throw data(null, { status: 404 });
  const rows = exportCodesCsv(db, id);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="promotion-${id}-codes.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
