#include "catalogkeys.h"

namespace headroom::store {

const QStringList &gpuKeys()
{
    static const QStringList keys = {
        QStringLiteral("id"),           QStringLiteral("name"),
        QStringLiteral("vendor"),       QStringLiteral("memory_bytes"),
        QStringLiteral("memory_nominal_gb"), QStringLiteral("hbm_bandwidth_gbps"),
        QStringLiteral("bf16_tflops"),  QStringLiteral("fp8_tflops"),
        QStringLiteral("nvlink_gbps"),  QStringLiteral("pcie_gbps"),
        QStringLiteral("tdp_w"),        QStringLiteral("gpus_per_node"),
        QStringLiteral("source"),
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
    };
    return keys;
}

} // namespace headroom::store
