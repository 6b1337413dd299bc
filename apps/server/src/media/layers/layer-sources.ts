/**
 * How the renderer gets the files image layers name (`l_image:{path}`), from whoever knows what
 * a path means and who may see it: the delivery host (src/delivery/layer-source.ts) resolves a
 * path in the URL's own workspace and hands back only files that URL may show. The media module
 * stays free of storage and database knowledge; it sniffs and limits the bytes like any input.
 */
export interface LayerSources {
  /**
   * The bytes of the file `path` names (read up to maxInputBytes), or undefined when there is no
   * such file this request may show.
   */
  image(path: string): Promise<Buffer | undefined>;
}
