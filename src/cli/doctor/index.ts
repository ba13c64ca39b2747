export { DOCTOR_OPTIONS, doctorCommand, DOCTOR_HELP } from "./doctor-command";
export { runDoctor } from "./doctor-checks";
