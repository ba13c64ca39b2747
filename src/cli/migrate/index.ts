export { MIGRATE_HELP, MIGRATE_OPTIONS, migrateCommand } from "./migrate-command";
