#include "catalogkeys.h"

namespace headroom::store {

const QStringList &gpuKeys()
{
    static const QStringList keys = {
        QStringLiteral("id"),           QStringLiteral("name"),
        QStringLiteral("vendor"),       QStringLiteral("dra_product_name"),
        QStringLiteral("memory_bytes"),
        QStringLiteral("memory_nominal_gb"), QStringLiteral("hbm_bandwidth_gbps"),
        QStringLiteral("bf16_tflops"),  QStringLiteral("fp8_tflops"),
        QStringLiteral("fp4_tflops"),
        QStringLiteral("nvlink_gbps"),  QStringLiteral("pcie_gbps"),
        QStringLiteral("tdp_w"),        QStringLiteral("gpus_per_node"),
        QStringLiteral("source"),       QStringLiteral("efficiency"),
        QStringLiteral("calibrations"),
    };
    return keys;
}

const QStringList &modelKeys()
{
    static const QStringList keys = {
        QStringLiteral("id"),              QStringLiteral("name"),
        QStringLiteral("params_total"),    QStringLiteral("params_active"),
        QStringLiteral("layers"),          QStringLiteral("hidden_size"),
        QStringLiteral("attention_heads"), QStringLiteral("kv_heads"),
        QStringLiteral("head_dim"),        QStringLiteral("attention"),
        QStringLiteral("kv_lora_rank"),    QStringLiteral("qk_rope_head_dim"),
        QStringLiteral("sliding_window"),  QStringLiteral("sliding_layers"),
        QStringLiteral("max_context"),     QStringLiteral("source"),
        QStringLiteral("vocab_size"),      QStringLiteral("tied_embeddings"),
        QStringLiteral("experts"),         QStringLiteral("experts_per_token"),
        QStringLiteral("layer_types"),     QStringLiteral("attention_chunk"),
        QStringLiteral("sink_tokens"),     QStringLiteral("state_bytes_per_layer"),
    };
    return keys;
}

const QStringList &optionalCatalogKeys()
{
    static const QStringList keys = {QStringLiteral("dra_product_name"), QStringLiteral("efficiency"),
                                     QStringLiteral("calibrations"), QStringLiteral("vocab_size"),
                                     QStringLiteral("tied_embeddings"), QStringLiteral("experts"),
                                     QStringLiteral("experts_per_token"), QStringLiteral("layer_types"),
                                     QStringLiteral("attention_chunk"), QStringLiteral("sink_tokens"),
                                     QStringLiteral("state_bytes_per_layer"), QStringLiteral("fp4_tflops")};
    return keys;
}

const QStringList &efficiencyKeys()
{
    static const QStringList keys = {
        QStringLiteral("bandwidth"),          QStringLiteral("kv_bandwidth"),
        QStringLiteral("matmul_small"),       QStringLiteral("matmul_peak"),
        QStringLiteral("matmul_half_tokens"), QStringLiteral("matmul_peak_fp8"),
        QStringLiteral("matmul_half_tokens_fp8"), QStringLiteral("attention"),
        QStringLiteral("allreduce_latency_us"), QStringLiteral("link"),
        QStringLiteral("layer_overhead_us"), QStringLiteral("iteration_overhead_ms"),
        QStringLiteral("sequence_overhead_us"),
        QStringLiteral("source"),
    };
    return keys;
}

const QStringList &rateCardKeys()
{
    static const QStringList keys = {
        QStringLiteral("provider"),       QStringLiteral("region"),
        QStringLiteral("gpu"),            QStringLiteral("instance_type"),
        QStringLiteral("currency"),       QStringLiteral("effective_date"),
        QStringLiteral("on_demand"),      QStringLiteral("reserved_1y"),
        QStringLiteral("reserved_1y_upfront"), QStringLiteral("reserved_3y"),
        QStringLiteral("reserved_3y_upfront"), QStringLiteral("spot"),
        QStringLiteral("spot_interruption_rate"), QStringLiteral("lead_weeks"),
        QStringLiteral("committed_are_examples"), QStringLiteral("source"),
    };
    return keys;
}

} // namespace headroom::store
