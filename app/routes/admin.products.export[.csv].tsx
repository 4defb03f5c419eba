import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { exportProductsCsv } from "../domain/catalog/admin/products-csv.server.ts";
import { requirePermission } from "../http/session.server.ts";
import type { Route } from "./+types/admin.products.export[.csv]";

/** Every live product as CSV (the import format), streamed in batches. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "products");
  const rows = exportProductsCsv(servicesFrom(context).db, (await shopSettingsFrom(context)).currency);
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
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="products-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
