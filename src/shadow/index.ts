export { loadShadow } from "./load-shadow";
