export { parseDocuments, readTextFile } from "./io";
