import { CircleAlert, CircleCheck, Info, TriangleAlert, X } from "lucide-react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useLocation } from "react-router";
import { TOAST_LIFETIME_MS, type Toast, type ToastType } from "../lib/toast.ts";

interface ToastApi {
  showToast(message: string, type?: ToastType): void;
}

const ToastContext = createContext<ToastApi | null>(null);

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error("useToast must be used within a ToastProvider");
  return api;
}

/** A toast, and the page (path and query) it was shown on. */
type ShownToast = Toast & { page: string };

/**
 * Holds the toast stack. A toast from the server (set before a redirect) is rendered in the
 * HTML itself, so it shows without JavaScript; with JavaScript each one closes after 5 s.
 *
 * A toast belongs to the page it was shown on: once the shopper moves on to another page (another
 * path or query: the next checkout step, say) the earlier toasts go, so a failed step's error
 * never shows on the step after it. The toast that arrives with a page (from the server) or is
 * shown on it stays for its 5 s.
 */
export function ToastProvider({ serverToast, children }: { serverToast: Toast | null; children: ReactNode }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  const [toasts, setToasts] = useState<ShownToast[]>(() =>
    serverToast ? [{ ...serverToast, page: here }] : [],
  );
  const seen = useRef(new Set(serverToast ? [serverToast.id] : []));
  // The page a toast shown from now on belongs to. Set in a layout effect, which runs before the
  // effects of the new page's components, which may show a toast on it at once.
  const page = useRef(here);
  useLayoutEffect(() => {
    page.current = here;
    setToasts((current) =>
      current.every((t) => t.page === here) ? current : current.filter((t) => t.page === here),
    );
  }, [here]);

  useEffect(() => {
    if (serverToast && !seen.current.has(serverToast.id)) {
      seen.current.add(serverToast.id);
      setToasts((current) => [...current, { ...serverToast, page: page.current }]);
    }
  }, [serverToast]);

  const dismiss = useCallback((id: string) => {
    setToasts((current) => current.filter((t) => t.id !== id));
  }, []);
  const nextId = useRef(0);
  const showToast = useCallback((message: string, type: ToastType = "info") => {
    // Not crypto.randomUUID(): browsers only offer it on HTTPS or localhost.
    nextId.current += 1;
    setToasts((current) => [
      ...current,
      { id: `client-${nextId.current}`, message, type, page: page.current },
    ]);
  }, []);

  return (
    <ToastContext.Provider value={{ showToast }}>
      {children}
      <section
        aria-label="Notifications"
        className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[calc(100%-2rem)] max-w-sm flex-col gap-2"
      >
        {/* the filter too: the page that moved on never renders, even once, with the old toasts */}
        {toasts
          .filter((toast) => toast.page === here)
          .map((toast) => (
            <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
          ))}
      </section>
    </ToastContext.Provider>
  );
}

const STYLES: Record<ToastType, { className: string; icon: typeof Info }> = {
  success: { className: "border-green-700 bg-green-50 text-green-900", icon: CircleCheck },
  error: { className: "border-red-700 bg-red-50 text-red-900", icon: CircleAlert },
  warning: { className: "border-amber-700 bg-amber-50 text-amber-900", icon: TriangleAlert },
  info: { className: "border-blue-700 bg-blue-50 text-blue-900", icon: Info },
};

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [toast.id, onDismiss]);
  const { className, icon: Icon } = STYLES[toast.type];
  return (
    <div
      role={toast.type === "error" ? "alert" : "status"}
      data-toast-type={toast.type}
      className={`pointer-events-auto flex items-start gap-3 rounded-lg border-l-4 p-4 shadow-lg ${className}`}
    >
      <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <p className="flex-1 text-sm font-medium">{toast.message}</p>
      <button
        type="button"
        onClick={() => onDismiss(toast.id)}
        className="rounded p-0.5 hover:bg-black/10"
        aria-label="Close notification"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
