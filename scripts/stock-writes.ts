/**
 * Finds where source text writes a stock column (product_variants.stock, products.stock): a Kysely
 * update naming `stock`, an insert with a stock other than 0, or raw SQL `update … set … stock`.
 * app/domain/inventory/stock-owner.test.ts runs it over the app: only the inventory area may.
 */

/** The statement starting at `from`: up to its execute…() call, or the next statement's start. */
function statementAt(text: string, from: number): string {
  const rest = text.slice(from + 1);
  const end = rest.search(
    /\.execute(TakeFirst|TakeFirstOrThrow)?\(|\b(updateTable|insertInto|selectFrom|deleteFrom)\(/,
  );
  return text.slice(from, from + 1 + (end === -1 ? rest.length : end));
}

const TABLE = `["'](productVariants|products)["']`;

/** Where `text` writes a stock column: a line number and what it is, for each. */
export function stockWrites(text: string): string[] {
  const found: string[] = [];
  const lineOf = (index: number) => text.slice(0, index).split("\n").length;
  for (const match of text.matchAll(new RegExp(`updateTable\\(\\s*${TABLE}\\s*\\)`, "g"))) {
    const statement = statementAt(text, match.index);
    // .set({ stock … }), .set((eb) => ({ stock: … })), set({ ...fields }) naming it
    if (/\bstock\b/.test(statement.replace(/\.where\([\s\S]*$/, "")))
      found.push(`${lineOf(match.index)}: update`);
  }
  for (const match of text.matchAll(new RegExp(`insertInto\\(\\s*${TABLE}\\s*\\)`, "g"))) {
    const statement = statementAt(text, match.index);
    for (const value of statement.matchAll(/\bstock\s*:\s*([^,}\n]+)/g)) {
      if (value[1]!.trim() !== "0")
        found.push(`${lineOf(match.index)}: insert with stock ${value[1]!.trim()}`);
    }
  }
  for (const match of text.matchAll(/update\s+"?(product_variants|products)"?\s+set\b[^;`]*?\bstock\b/gi)) {
    found.push(`${lineOf(match.index)}: raw SQL`);
  }
  return found;
}
