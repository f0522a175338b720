"""Dataset exports: HuggingFace folders and Hub push, COCO, lmms-eval and VLMEvalKit."""
