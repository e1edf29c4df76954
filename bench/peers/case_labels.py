# SPDX-License-Identifier: Apache-2.0
"""dmlcpu benchmarks -- each case's shape and type, for the table and the chart.

The same cases as bench/*_bench.cc and peers.py's CASES (which build
them); a name missing here is shown bare. Shapes are {input} -> operation; index types are INT64
throughout (as ONNX models carry them)."""

CASE_LABELS = {
    "KvCacheWindow": "f16 {8,64,2048,128} [:, :, 512:1536]",
    "HeadSplit": "f32 {8,64,2048,128} [:, 16:48]",
    "ResNetStride2Subsample": "f32 {4096,4096} [::2, ::2]",
    "InterleavedChannelSelect": "f32 {4096,4096} [:, 1::3]",
    "HorizontalFlip": "f32 {4096,4096} [:, ::-1]",
    "VerticalFlip": "f32 {4096,4096} [::-1]",
    "KeyTransposeView": "f32 {4096,4096} transposed view",
    "StridedOutputRows": "f32 {2048,4096} -> every 2nd row of {4096,4096}",
    "ShapeSubgraphSlice": "f32 {4,16} [1:3, 4:12]",
    "EmbeddingLookupLlama2Fp16": "f16 {32000,4096}, 512 ids",
    "EmbeddingLookupLlama2Fp32": "f32 {32000,4096}, 512 ids",
    "EmbeddingLookupLlama2SortedRuns": "f16 {32000,4096}, 512 sorted-run ids",
    "EmbeddingLookupLlama3Fp16": "f16 {128256,4096}, 2048 ids",
    "EmbeddingLookupLlama3SortedRuns": "f16 {128256,4096}, 2048 sorted-run ids",
    "TokenPruningGather": "f32 {64,1024,64}, axis 1, 256 ids",
    "ChannelSelectGather": "f32 {4096,1024}, axis 1, 512 ids",
    "TopKGatherElementsAxis1": "f32 {4096,4096}, GatherElements axis 1",
    "TopKGatherElementsAxis0": "f32 {4096,4096}, GatherElements axis 0",
    "TopKGatherElementsAxis0FewRows": "f32 {4096,4096} -> {16,4096}, GatherElements axis 0",
    "DetectionGatherNd": "f32 {256,256,512}, 10000 (i,j) tuples",
    "SparseVoxelGatherNd": "f32 {64,64,64,64}, 1000000 4-tuples",
    "BatchedTokenGatherNd1": "f32 {8,1024,256}, batch 1, 8x2000 ids",
    "TinyEmbeddingGather": "f32 {100,16}, 8 ids",
    "AttentionHeadsTranspose": "f16 {1,32,2048,128} perm {0,2,1,3}",
    "KeyTranspose2D": "f32 {4096,4096} transposed (IDENTITY)",
    "KvCacheAppendJoin": "f16 {8,32,2047,128} ++ {8,32,1,128} on axis 2",
    "QkvSplit": "f16 {8,2048,12288} into 3 on the last axis",
    "TileRows": "f32 {1,1,4096} tiled to {1,2048,4096}",
    "ExpandRows": "f32 {1,4096} expanded to {4096,4096}",
    "TinyTranspose": "f32 {4,16} transposed",
    "TinyExpand": "f32 {1,16} expanded to {4,16}",
    "TinyConcat": "f32 {4,8} ++ {4,8} on axis 1",
    "TinySplit": "f32 {4,16} into 2 on axis 1",
    "TinyTile": "f32 {4,4} tiled {1,4}",
    "NchwToNhwcView": "f32 {32,64,56,56} NCHW -> NHWC view",
    "AttentionHeadsView": "f16 {1,32,2048,128} perm {0,2,1,3} view",
    "DepthToSpaceDcrView": "f32 {1,256,128,128} DepthToSpace 2 DCR view",
    "DepthToSpaceCrdView": "f32 {1,256,128,128} DepthToSpace 2 CRD view",
    "ConvInputPadConstant": "f32 {32,64,56,56} padded 1 on H, W with zeros",
    "ConvInputPadReflect": "f32 {32,64,56,56} padded 1 on H, W by reflection",
    "PixelShuffleDcr": "f32 {1,256,128,128} DepthToSpace 2 DCR",
    "PixelShuffleCrd": "f32 {1,256,128,128} DepthToSpace 2 CRD",
    "PatchUnshuffle": "f32 {1,64,256,256} SpaceToDepth 2",
    "SliceGradWindow": "f16 {8,32,1024,128} into [:, :, 512:1536] of {8,32,2048,128}",
    "TinyPad": "f32 {4,16} padded 1 with zeros",
    "TinyPadReflect": "f32 {4,16} padded 1 by reflection",
    "TinyDepthToSpace": "f32 {1,4,2,8} DepthToSpace 2 DCR",
    "TinySliceGrad": "f32 {2,8} into [1:3, 4:12] of {4,16}",
}


def case_label(name):
    """'HeadSplit (f32 {8,64,2048,128} [:, 16:48])', or the bare name."""
    label = CASE_LABELS.get(name)
    return f"{name} ({label})" if label else name
