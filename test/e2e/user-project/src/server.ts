import { serve } from "crdshift/node";
import { registry } from "./registry.js";

serve(registry);
