export declare const cronTabStable: import("crdshift").KindDefinition;
