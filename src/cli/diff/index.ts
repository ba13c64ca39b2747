export { DIFF_OPTIONS, diffCommand, DIFF_HELP } from "./diff-command";
