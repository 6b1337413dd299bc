import { type RefObject, useEffect, useState } from "react";

/** How many tiles of `tileWidth` fit across the element, kept current as it resizes. */
export function useColumns(ref: RefObject<HTMLElement | null>, tileWidth: number): number {
  const [columns, setColumns] = useState(1);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setColumns(Math.max(1, Math.floor(element.clientWidth / tileWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, tileWidth]);
  return columns;
}
