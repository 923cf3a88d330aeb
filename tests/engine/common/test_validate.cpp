#include "models.h"

#include "engine/catalog/specs.h"

#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <vector>

using namespace headroom::engine;
using headroom::test::h100Sxm;

namespace {

std::vector<std::string> fieldsOf(const std::vector<FieldProblem> &problems)
{
    std::vector<std::string> fields;
    for (const FieldProblem &p : problems)
        fields.push_back(p.field);
    return fields;
}

template <typename Spec>
struct BadCase {
    std::string field;
    std::function<void(Spec &)> spoil;
};

} // namespace

TEST_CASE("catalog GPUs and models pass validation", "[validate]")
{
    CHECK(validate(h100Sxm()).empty());
    CHECK(validate(headroom::test::llama31_8b()).empty());
    CHECK(validate(headroom::test::llama31_70b()).empty());
    CHECK(validate(headroom::test::deepseekV3()).empty());
    CHECK(validate(headroom::test::gemma2_9b()).empty());
    CHECK(validate(headroom::test::goldenGqa()).empty());
}

TEST_CASE("each bad GPU field is reported by its JSON key", "[validate]")
{
    const std::vector<BadCase<GpuSpec>> cases = {
        {"id", [](GpuSpec &g) { g.id = ""; }},
        {"id", [](GpuSpec &g) { g.id = "H100-SXM"; }},
        {"id", [](GpuSpec &g) { g.id = "h100 sxm"; }},
        {"name", [](GpuSpec &g) { g.name = ""; }},
        {"memory_bytes", [](GpuSpec &g) { g.memoryBytes = 0; }},
        {"memory_bytes", [](GpuSpec &g) { g.memoryBytes = (int64_t(4) << 40) + 1; }},
        {"hbm_bandwidth_gbps", [](GpuSpec &g) { g.hbmBandwidthGBps = 0; }},
        {"bf16_tflops", [](GpuSpec &g) { g.bf16Tflops = -1; }},
        {"fp8_tflops", [](GpuSpec &g) { g.fp8Tflops = -1; }},
        {"nvlink_gbps", [](GpuSpec &g) { g.nvlinkGBps = -900; }},
        {"pcie_gbps", [](GpuSpec &g) { g.pcieGBps = 0; }},
        {"tdp_w", [](GpuSpec &g) { g.tdpWatts = 0; }},
        {"gpus_per_node", [](GpuSpec &g) { g.gpusPerNode = 0; }},
        {"gpus_per_node", [](GpuSpec &g) { g.gpusPerNode = 73; }},
        {"memory_nominal_gb", [](GpuSpec &g) { g.nominalMemoryGB = 0; }},
    };
    for (const auto &c : cases) {
        GpuSpec gpu = h100Sxm();
        c.spoil(gpu);
        INFO("field " << c.field);
        CHECK(fieldsOf(validate(gpu)) == std::vector<std::string>{c.field});
    }

    GpuSpec edge = h100Sxm();
    edge.fp8Tflops = 0;
    edge.nvlinkGBps = 0;
    edge.gpusPerNode = 72;
    edge.memoryBytes = int64_t(4) << 40;
    CHECK(validate(edge).empty());
}

TEST_CASE("each bad model field is reported by its JSON key", "[validate]")
{
    const std::vector<BadCase<ModelSpec>> cases = {
        {"id", [](ModelSpec &m) { m.id = "Llama/8B"; }},
        {"name", [](ModelSpec &m) { m.name = ""; }},
        {"params_total", [](ModelSpec &m) { m.paramsTotal = 0; }},
        {"params_active", [](ModelSpec &m) { m.paramsActive = m.paramsTotal * 2; }},
        {"params_active", [](ModelSpec &m) { m.paramsActive = 0; }},
        {"layers", [](ModelSpec &m) { m.layers = 0; }},
        {"hidden_size", [](ModelSpec &m) { m.hiddenSize = 0; }},
        {"kv_heads", [](ModelSpec &m) { m.kvHeads = 0; }},
        {"kv_heads", [](ModelSpec &m) { m.kvHeads = 64; }},
        {"kv_heads", [](ModelSpec &m) { m.kvHeads = 6; }},
        {"head_dim", [](ModelSpec &m) { m.headDim = 0; }},
        {"kv_lora_rank", [](ModelSpec &m) { m.kvLoraRank = 512; }},
        {"qk_rope_head_dim", [](ModelSpec &m) { m.qkRopeHeadDim = 64; }},
        {"sliding_layers", [](ModelSpec &m) { m.slidingLayers = 33; m.slidingWindow = 4096; }},
        {"sliding_window", [](ModelSpec &m) { m.slidingLayers = 16; }},
        {"sliding_window", [](ModelSpec &m) { m.slidingWindow = 4096; }},
        {"max_context", [](ModelSpec &m) { m.maxContext = 0; }},
    };
    for (const auto &c : cases) {
        ModelSpec model = headroom::test::llama31_8b();
        c.spoil(model);
        INFO("field " << c.field);
        const auto fields = fieldsOf(validate(model));
        REQUIRE_FALSE(fields.empty());
        CHECK(fields.front() == c.field);
    }
}

TEST_CASE("MLA models need a latent rank and accept any KV head count", "[validate]")
{
    ModelSpec mla = headroom::test::deepseekV3();
    mla.kvLoraRank = 0;
    CHECK(fieldsOf(validate(mla)) == std::vector<std::string>{"kv_lora_rank"});

    mla = headroom::test::deepseekV3();
    mla.qkRopeHeadDim = -1;
    CHECK(fieldsOf(validate(mla)) == std::vector<std::string>{"qk_rope_head_dim"});

    mla = headroom::test::deepseekV3();
    mla.qkRopeHeadDim = 0;
    CHECK(validate(mla).empty());
}

TEST_CASE("validation messages state the valid range and the value", "[validate]")
{
    ModelSpec model = headroom::test::llama31_8b();
    model.layers = 0;
    const auto problems = validate(model);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].field == "layers");
    CHECK(problems[0].message == "layers must be at least 1 (got 0)");

    GpuSpec gpu = h100Sxm();
    gpu.gpusPerNode = 0;
    const auto gpuProblems = validate(gpu);
    REQUIRE(gpuProblems.size() == 1);
    CHECK(gpuProblems[0].message == "gpus_per_node must be between 1 and 72 (got 0)");

    ModelSpec bad = headroom::test::llama31_8b();
    bad.layers = 0;
    bad.headDim = 0;
    bad.name.clear();
    CHECK(validate(bad).size() >= 3);
}
