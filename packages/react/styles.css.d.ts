// `import "@trove/react/styles.css"` is a side-effect import; TypeScript 6 checks those resolve
// (noUncheckedSideEffectImports), so outside a bundler's own `*.css` declarations it needs this.
export {};
