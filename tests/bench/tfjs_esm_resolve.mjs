// tfjs_esm_resolve.mjs — a module-resolution hook for node: lets tfjs-core's ES-module files (dist/*.js, whose
// relative imports omit the ".js" a bundler adds) load, so that tfjs's documented
// `@tensorflow/tfjs-core/dist/register_all_gradients` registers tfjs's own gradients for autodiff.
export async function resolve(specifier, context, next) {
  const insideCore = context.parentURL && context.parentURL.includes('/@tensorflow/tfjs-core/dist/');
  if (insideCore && specifier.startsWith('.') && !/\.[cm]?js$/.test(specifier)) return next(`${specifier}.js`, context);
  return next(specifier, context);
}
