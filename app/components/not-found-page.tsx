import { Link } from "react-router";
import { SearchForm } from "./header.tsx";

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-24 text-center">
      <title>Page Not Found | Cartwheel</title>
      <meta name="description" content="The page you are looking for does not exist." />
      <meta name="robots" content="noindex" />
      <p className="text-6xl font-extrabold text-brand-700">404</p>
      <h1 className="mt-4 text-3xl font-bold">Page Not Found</h1>
      <p className="mt-4 text-gray-700">
        Sorry, we couldn't find the page you're looking for. It may have moved, or the link may be wrong.
      </p>
      <div className="mt-8 flex justify-center gap-3">
        <Link
          to="/"
          className="rounded-lg bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Go Home
        </Link>
        <Link
          to="/products"
          className="rounded-lg border border-brand-700 px-5 py-3 font-semibold text-brand-700 hover:bg-brand-50"
        >
          Shop Products
        </Link>
      </div>
      <SearchForm id="not-found-search" className="mx-auto mt-10 flex max-w-md" />
    </div>
  );
}
