import { type DragEvent, useRef, useState } from "react";
import { PRODUCT_FORM_MESSAGES } from "../../domain/catalog/admin/product-form.ts";
import { useToast } from "../toasts.tsx";

const ACCEPTED = ["image/jpeg", "image/png", "image/gif"];

/**
 * A file picker for several images, enhanced with drag and drop. The browser's type is only a
 * first filter (the spec's message); the server checks every file's content again.
 */
export function ImageInput({
  id,
  name = "images",
  label,
  error,
  required = false,
}: {
  id: string;
  name?: string;
  label: string;
  error?: string;
  required?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const { showToast } = useToast();
  const [names, setNames] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);

  const accept = (list: FileList | null) => {
    if (!input.current || !list) return;
    const kept = new DataTransfer();
    let rejected = false;
    for (const file of Array.from(list)) {
      if (ACCEPTED.includes(file.type)) kept.items.add(file);
      else rejected = true;
    }
    if (rejected) showToast(PRODUCT_FORM_MESSAGES.rejectedFiles, "error");
    input.current.files = kept.files;
    setNames(Array.from(kept.files).map((file) => file.name));
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    accept(event.dataTransfer.files);
  };
  const hintId = `${id}-hint`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-semibold text-gray-900">
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop zone only enhances the labelled file input inside it */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`mt-1 rounded-lg border-2 border-dashed p-4 ${
          dragging ? "border-brand-600 bg-brand-50" : error ? "border-red-700 bg-red-50" : "border-gray-400"
        }`}
      >
        <input
          ref={input}
          id={id}
          name={name}
          type="file"
          multiple
          accept={ACCEPTED.join(",")}
          aria-describedby={error ? `${id}-error ${hintId}` : hintId}
          aria-invalid={error ? true : undefined}
          onChange={(event) => accept(event.currentTarget.files)}
          className="block w-full text-sm text-gray-900 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:font-semibold file:text-white"
        />
        <p id={hintId} className="mt-2 text-sm text-gray-700">
          JPG, PNG or GIF, up to 10MB each, at most 10 images. You can also drop files here.
        </p>
        {names.length > 0 && (
          <ul className="mt-2 text-sm text-gray-800" aria-label="Selected images">
            {names.map((file) => (
              <li key={file}>{file}</li>
            ))}
          </ul>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
