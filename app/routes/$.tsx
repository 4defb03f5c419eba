import { data } from "react-router";
import { NotFoundPage } from "../components/not-found-page.tsx";

export function loader() {
  throw data(null, { status: 404 });
}

export function action() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}
