/** The file's extension (or "FILE") in a box, where an image would show its thumbnail. */
export function filePlaceholder(fileName: string): HTMLSpanElement {
  const element = document.createElement("span");
  element.className = "placeholder";
  element.textContent = /\.([a-z0-9]{1,5})$/i.exec(fileName)?.[1]?.toUpperCase() ?? "FILE";
  return element;
}
