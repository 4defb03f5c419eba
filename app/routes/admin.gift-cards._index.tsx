import { Link } from "react-router";
import { adminMeta, positiveInt } from "../components/admin/admin-meta.ts";
import { AdminPaging } from "../components/admin/admin-paging.tsx";
import {
  CardLabel,
  Cell,
  ColumnHeader,
  Row,
  RowHeader,
  STACKED_TABLE,
  StackedTable,
} from "../components/admin/stacked-table.tsx";
import { TableScroll } from "../components/table-scroll.tsx";
import { servicesFrom, shopSettingsFrom } from "../context.ts";
import { listGiftCards } from "../domain/gift-cards/gift-cards.server.ts";
import { requirePermission } from "../http/session.server.ts";
import { formatMoney } from "../lib/money.ts";
import { formatDateTimeIn } from "../lib/time-zones.ts";
import type { Route } from "./+types/admin.gift-cards._index";

export const meta: Route.MetaFunction = ({ matches }) =>
  adminMeta(matches, "Gift cards", "/admin/gift-cards");

const LIST = "/admin/gift-cards";
const pageLink = (page: number) => (page > 1 ? `${LIST}?page=${page}` : LIST);

/** Gift cards and store credit, newest first: what each holds of what it was worth, and until when. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePermission(request, context, "refunds");
  const page = positiveInt(new URL(request.url).searchParams.get("page"), 10_000) ?? 1;
  const { timeZone } = await shopSettingsFrom(context);
  const { cards, hasMore } = await listGiftCards(servicesFrom(context).db, { page });
  return {
    page,
    hasMore,
    cards: cards.map((card) => ({
      id: card.id,
      name: card.kind === "store_credit" ? "Store credit" : `Ending ${card.last4}`,
      balance: formatMoney(card.balanceCents, card.currency),
      initial: formatMoney(card.initialCents, card.currency),
      recipient: card.recipientEmail ?? "—",
      expires: card.expiresAt ? formatDateTimeIn(card.expiresAt, timeZone) : "Never",
      issued: formatDateTimeIn(card.createdAt, timeZone),
      status: card.disabled ? "Disabled" : card.balanceCents === 0 ? "Used up" : "Active",
    })),
  };
}

export default function AdminGiftCards({ loaderData }: Route.ComponentProps) {
  const { cards, page, hasMore } = loaderData;
  return (
    <section aria-labelledby="gift-cards-heading">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="gift-cards-heading" className="text-3xl font-bold">
          Gift cards
        </h1>
        <Link
          to="/admin/gift-cards/new"
          className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
        >
          Issue a gift card
        </Link>
      </div>
      <p className="mt-2 max-w-3xl text-sm text-gray-700">
        A gift card's code is shown once, when it is issued, and e-mailed to its recipient; the shop keeps
        only its last four characters.
      </p>
      {cards.length === 0 ? (
        <p className="mt-6 text-gray-700">No gift cards yet.</p>
      ) : (
        <TableScroll label="Gift card list" className="mt-6">
          <StackedTable>
            <thead className={STACKED_TABLE.head}>
              <Row>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Card</ColumnHeader>
                <ColumnHeader className={`${STACKED_TABLE.columnHeader} text-right`}>Balance</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Recipient</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Issued</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Expires</ColumnHeader>
                <ColumnHeader className={STACKED_TABLE.columnHeader}>Status</ColumnHeader>
                <ColumnHeader className="py-2 font-semibold">
                  <span className="sr-only">Actions</span>
                </ColumnHeader>
              </Row>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {cards.map((card) => (
                <Row key={card.id} className={`${STACKED_TABLE.row} grid-cols-[minmax(0,1fr)_auto]`}>
                  <RowHeader className={`${STACKED_TABLE.cell} font-semibold`}>{card.name}</RowHeader>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 md:text-right`}>
                    <CardLabel>Balance</CardLabel>
                    {card.balance} <span className="text-gray-700">of {card.initial}</span>
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 break-all`}>
                    <CardLabel>Recipient</CardLabel>
                    {card.recipient}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Issued</CardLabel>
                    {card.issued}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2`}>
                    <CardLabel>Expires</CardLabel>
                    {card.expires}
                  </Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-start-2 row-start-1`}>{card.status}</Cell>
                  <Cell className={`${STACKED_TABLE.cell} col-span-2 pt-1`}>
                    <Link
                      to={`/admin/gift-cards/${card.id}`}
                      className="inline-block rounded-lg border border-gray-400 px-3 py-1.5 font-semibold hover:bg-gray-100"
                    >
                      View<span className="sr-only"> gift card {card.name}</span>
                    </Link>
                  </Cell>
                </Row>
              ))}
            </tbody>
          </StackedTable>
        </TableScroll>
      )}
      <AdminPaging page={page} hasMore={hasMore} pageLink={pageLink} />
    </section>
  );
}
