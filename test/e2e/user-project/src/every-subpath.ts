// Every public subpath, for tsconfig.nodenext.json: crdshift's declarations as nodenext reads them.
import { createRegistry, defineKind, mapping } from "crdshift";
import { CrdshiftWebhook } from "crdshift/aws-cdk";
import { createHandler } from "crdshift/lambda";
import { serve } from "crdshift/node";
import { checkKind, checkReply } from "crdshift/testing";
import { createWorker } from "crdshift/workers";

export const subpaths = [
  createRegistry,
  defineKind,
  mapping,
  CrdshiftWebhook,
  createHandler,
  serve,
  checkKind,
  checkReply,
  createWorker,
];
