#pragma once

#include "engine/inference/kv.h"
#include "engine/catalog/specs.h"

// Architectures from the models' public config.json files, used as test fixtures.
namespace headroom::test {

using engine::kGiB;

// DESIGN §3.1 golden model: 64 layers, 8 KV heads of 128 dims, 8 Gi parameters (16 GiB bf16).
inline engine::ModelSpec goldenGqa()
{
    engine::ModelSpec m;
    m.id = "golden-8b";
    m.name = "Golden 8B-class";
    m.paramsTotal = 8589934592.0;
    m.paramsActive = m.paramsTotal;
    m.layers = 64;
    m.hiddenSize = 8192;
    m.attentionHeads = 64;
    m.kvHeads = 8;
    m.headDim = 128;
    m.attention = engine::AttentionKind::Gqa;
    m.maxContext = 131072;
    return m;
}

inline engine::ModelSpec llama31_8b()
{
    engine::ModelSpec m;
    m.id = "llama-3.1-8b";
    m.name = "Llama 3.1 8B";
    m.paramsTotal = 8030261248.0;
    m.paramsActive = m.paramsTotal;
    m.layers = 32;
    m.hiddenSize = 4096;
    m.attentionHeads = 32;
    m.kvHeads = 8;
    m.headDim = 128;
    m.maxContext = 131072;
    return m;
}

// Qwen3-235B-A22B: 94 layers, 4 KV heads of 128 dims, 128 experts of which 8 a token.
inline engine::ModelSpec qwen3_235b()
{
    engine::ModelSpec m = llama31_8b();
    m.id = "qwen3-235b-a22b";
    m.name = "Qwen3 235B-A22B";
    m.paramsTotal = 235093634560.0;
    m.paramsActive = 22190763520.0;
    m.layers = 94;
    m.hiddenSize = 4096;
    m.attentionHeads = 64;
    m.kvHeads = 4;
    m.headDim = 128;
    m.vocabSize = 151936;
    m.experts = 128;
    m.expertsPerToken = 8;
    return m;
}

inline engine::ModelSpec llama31_70b()
{
    engine::ModelSpec m;
    m.id = "llama-3.1-70b";
    m.name = "Llama 3.1 70B";
    m.paramsTotal = 70553706496.0;
    m.paramsActive = m.paramsTotal;
    m.layers = 80;
    m.hiddenSize = 8192;
    m.attentionHeads = 64;
    m.kvHeads = 8;
    m.headDim = 128;
    m.maxContext = 131072;
    return m;
}

inline engine::ModelSpec deepseekV3()
{
    engine::ModelSpec m;
    m.id = "deepseek-v3";
    m.name = "DeepSeek-V3";
    m.paramsTotal = 671e9;
    m.paramsActive = 37e9;
    m.layers = 61;
    m.hiddenSize = 7168;
    m.attentionHeads = 128;
    m.kvHeads = 128;
    m.headDim = 128;
    m.attention = engine::AttentionKind::Mla;
    m.kvLoraRank = 512;
    m.qkRopeHeadDim = 64;
    m.maxContext = 163840;
    m.experts = 256;
    m.expertsPerToken = 8;
    return m;
}

// Gemma-2-9B: alternating local (4096-token window) and global layers.
inline engine::ModelSpec gemma2_9b()
{
    engine::ModelSpec m;
    m.id = "gemma-2-9b";
    m.name = "Gemma 2 9B";
    m.paramsTotal = 9241705984.0;
    m.paramsActive = m.paramsTotal;
    m.layers = 42;
    m.hiddenSize = 3584;
    m.attentionHeads = 16;
    m.kvHeads = 8;
    m.headDim = 256;
    m.slidingLayers = 21;
    m.slidingWindow = 4096;
    m.maxContext = 8192;
    return m;
}

inline engine::GpuSpec h100Sxm()
{
    engine::GpuSpec g;
    g.id = "h100-sxm";
    g.name = "NVIDIA H100 SXM 80GB";
    g.vendor = "NVIDIA";
    g.draProductName = "NVIDIA H100 80GB HBM3";
    g.memoryBytes = 85520809984; // 81559 MiB as reported by the driver
    g.nominalMemoryGB = 80;
    g.hbmBandwidthGBps = 3350;
    g.bf16Tflops = 989;
    g.fp8Tflops = 1979;
    g.nvlinkGBps = 900;
    g.pcieGBps = 64;
    g.tdpWatts = 700;
    g.gpusPerNode = 8;
    return g;
}

} // namespace headroom::test
