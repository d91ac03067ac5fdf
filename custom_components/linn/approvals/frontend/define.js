// Define the card's elements in the registry Home Assistant's dashboard looks them up in.
//
// Home Assistant's app bundle replaces window.customElements with a scoped custom element
// registry polyfill while it boots. The integration loads the card as an extra module, which the
// page imports beside that bundle: when the card's small module runs first (a slow or busy
// machine, a cold cache), an element defined at once lands in the browser's own registry, which
// the dashboard no longer consults, and the card stays "Custom element doesn't exist" on that
// page. So wait until the app has defined its root element, <home-assistant> (after its swap),
// and define in whatever window.customElements is by then.

/** Resolves once window.customElements is the registry the frontend uses. */
export function frontendRegistryReady() {
  const root = document.querySelector("home-assistant");
  if (!root || window.customElements.get("home-assistant")) return Promise.resolve();
  return window.customElements.whenDefined("home-assistant");
}

/** customElements.define, in the frontend's registry and once (the module may be loaded twice). */
export async function defineElement(name, constructor) {
  await frontendRegistryReady();
  const registry = window.customElements;
  if (!registry.get(name)) registry.define(name, constructor);
}
