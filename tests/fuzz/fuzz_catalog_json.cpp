// Catalog JSON → GPUs and models; every model's KV bytes per token and weights per GPU are
// computed, as the KV page does for a catalog entry.
#include "fuzzsupport.h"

#include "engine/inference/kv.h"
#include "store/catalog/catalogjson.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    headroom::fuzz::refusalsAreFine([&] {
        const auto catalog = headroom::store::parseCatalog(headroom::fuzz::bytesOf(data, size),
                                                           headroom::fuzz::kSource);
        headroom::store::catalogToJson(catalog);
        for (const auto &model : catalog.models) {
            headroom::fuzz::refusalsAreFine([&] {
                headroom::engine::KvInputs in;
                in.model = model;
                in.gpuMemoryBytes = 80 * headroom::engine::kGiB;
                in.contexts = {1, 4096, 1'000'000'000};
                headroom::engine::analyseKv(in);
            });
        }
    });
    return 0;
}
