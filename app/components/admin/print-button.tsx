import { useEffect, useState } from "react";

/** "Print" for a printable page: shown once JavaScript runs (without it, the browser's own Print). */
export function PrintButton() {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <button
      type="button"
      onClick={() => window.print()}
      className="rounded-lg bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800"
    >
      Print
    </button>
  );
}
