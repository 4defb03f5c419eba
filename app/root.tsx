import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
  useSearchParams,
} from "react-router";
import type { Route } from "./+types/root";
import { DocumentStyles } from "./components/document-styles.tsx";
import { Footer } from "./components/footer.tsx";
import { Header } from "./components/header.tsx";
import { useNonce } from "./components/nonce.tsx";
import { NotFoundPage } from "./components/not-found-page.tsx";
import { ToastProvider } from "./components/toasts.tsx";
import { provideServices } from "./composition.server.ts";
import { servicesFrom, shopSettingsFrom } from "./context.ts";
import { claimGuestCart, findCartId } from "./domain/cart/cart-owner.server.ts";
import { getCartQuantity } from "./domain/cart/get-cart.server.ts";
import { listWishlistProductIds } from "./domain/wishlist/wishlist.server.ts";
import { cartOwnerFor, clearCartCookie, readCartId } from "./http/cart-session.server.ts";
import { getSessionUser } from "./http/session.server.ts";
import { getToast } from "./http/toast.server.ts";
import { DEFAULT_STOREFRONT, storefrontOf } from "./lib/shop-settings.ts";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const middleware: Route.MiddlewareFunction[] = [provideServices];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config: env } = servicesFrom(context);
  const { toast, headers: toastHeaders } = await getToast(request);
  const headers = toastHeaders ?? new Headers();
  const user = await getSessionUser(request, context);
  if (user) {
    // A guest cart cookie while signed in (a session from before carts belonged to accounts)
    // joins the account's cart once, as at sign-in (decision 011).
    const strayGuestCartId = await readCartId(request);
    if (strayGuestCartId) {
      await claimGuestCart(db, { userId: user.id, guestCartId: strayGuestCartId });
      headers.append("Set-Cookie", await clearCartCookie());
    }
  }
  // The header badge: the account's cart when signed in, else the cookie's guest cart; no query
  // at all for a guest without a cart cookie.
  const owner = await cartOwnerFor(request, context, user);
  const cartId = owner.userId !== null || owner.guestCartId ? await findCartId(db, owner) : null;
  const cartQuantity = cartId ? await getCartQuantity(db, cartId) : 0;
  // The header's count and the product cards' hearts: one query, none for a signed-out visitor.
  const wishlist = user ? await listWishlistProductIds(db, user.id) : [];
  const shop = storefrontOf(await shopSettingsFrom(context));
  return data(
    {
      toast,
      origin: env.PUBLIC_URL,
      /** the checkout loads its payment provider's page as a document of its own (checkout.tsx) */
      paymentProvider: env.PAYMENT_GATEWAY,
      year: new Date().getFullYear(),
      cartQuantity,
      userName: user?.displayName ?? null,
      wishlist,
      /** the shop's settings and home market: every page's prices, contact details and shipping terms */
      shop,
    },
    { headers },
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof loader>("root");
  // the back office (routes/admin.tsx) has its own frame while its loader has let the visitor in
  const inBackOffice = useRouteLoaderData("routes/admin") != null;
  const [searchParams] = useSearchParams();
  const shop = root?.shop ?? DEFAULT_STOREFRONT;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#3730a3" />
        <Meta />
        <DocumentStyles />
        {/* no first paint of a half-parsed page: the main content is laid out once, before it shows */}
        <link rel="expect" href={inBackOffice ? "#main" : "#site-footer"} blocking="render" />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col" data-payment-provider={root?.paymentProvider}>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-4 focus:py-2 focus:shadow"
        >
          Skip to content
        </a>
        <ToastProvider serverToast={root?.toast ?? null}>
          {inBackOffice ? (
            children
          ) : (
            <>
              <Header
                shopName={shop.shopName}
                cartQuantity={root?.cartQuantity ?? 0}
                wishlistCount={root?.wishlist.length ?? 0}
                userName={root?.userName ?? null}
                searchQuery={searchParams.get("search") ?? ""}
              />
              <main id="main" className="flex-1">
                {children}
              </main>
              <Footer shop={shop} year={root?.year ?? new Date().getFullYear()} />
            </>
          )}
        </ToastProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const showStack = import.meta.env.DEV && error instanceof Error;
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center">
      <title>Something went wrong | Cartwheel</title>
      <p className="text-sm font-semibold text-brand-700">Error {status}</p>
      <h1 className="mt-2 text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-gray-700">
        We could not load this page. Please try again in a moment; if it keeps happening, contact us.
      </p>
      <a href="/" className="mt-8 inline-block rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white">
        Go Home
      </a>
      {showStack && <pre className="mt-8 overflow-auto text-left text-xs">{error.stack}</pre>}
    </div>
  );
}
