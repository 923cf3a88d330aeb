#include "catalogfields.h"

#include "store/catalogjson.h"
#include "store/workspace.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace headroom::ui {

namespace {

using Type = CatalogField::Type;
constexpr double kGiB = 1073741824.0;

CatalogField field(const char *key, const QString &label, const QString &unit, const QString &tooltip,
                   Type type, double scale = 1, double minimum = 0, double maximum = 1e12, int decimals = 0)
{
    CatalogField f;
    f.key = QLatin1String(key);
    f.label = label;
    f.unit = unit;
    f.tooltip = tooltip;
    f.type = type;
    f.scale = scale;
    f.minimum = minimum;
    f.maximum = maximum;
    f.decimals = decimals;
    return f;
}

std::vector<CatalogField> gpuFields()
{
    return {
        field("id", QObject::tr("Id"), {}, QObject::tr("Stable key: lowercase letters, digits, '.', '-', '_'"), Type::Text),
        field("name", QObject::tr("Name"), {}, QObject::tr("Display name"), Type::Text),
        field("vendor", QObject::tr("Vendor"), {}, QObject::tr("Manufacturer"), Type::Text),
        field("memory_bytes", QObject::tr("Memory"), "GiB", QObject::tr("Memory as the driver reports it (nvidia-smi total), in GiB = 2^30 bytes"), Type::Number, kGiB, 0.01, 4096, 2),
        field("memory_nominal_gb", QObject::tr("Nominal memory"), "GB", QObject::tr("Memory as sold, e.g. 80 GB"), Type::Number, 1, 0.01, 4096, 0),
        field("hbm_bandwidth_gbps", QObject::tr("HBM bandwidth"), "GB/s", QObject::tr("Memory bandwidth in GB/s (10^9 bytes per second)"), Type::Number, 1, 0.01, 100000, 0),
        field("bf16_tflops", QObject::tr("BF16"), "TFLOPS", QObject::tr("Dense BF16 tensor throughput, TFLOPS (no sparsity)"), Type::Number, 1, 0.01, 100000, 1),
        field("fp8_tflops", QObject::tr("FP8"), "TFLOPS", QObject::tr("Dense FP8 tensor throughput, TFLOPS; 0 when the GPU has no FP8"), Type::Number, 1, 0, 100000, 1),
        field("nvlink_gbps", QObject::tr("NVLink"), "GB/s", QObject::tr("GPU-to-GPU link bandwidth, total per GPU in GB/s; 0 when none"), Type::Number, 1, 0, 100000, 0),
        field("pcie_gbps", QObject::tr("PCIe"), "GB/s", QObject::tr("Host link bandwidth per direction, GB/s (PCIe 4.0 x16 = 32, 5.0 = 64)"), Type::Number, 1, 0.01, 10000, 0),
        field("tdp_w", QObject::tr("TDP"), "W", QObject::tr("Board power, watts"), Type::Number, 1, 1, 10000, 0),
        field("gpus_per_node", QObject::tr("GPUs/node"), {}, QObject::tr("GPUs in a typical server, 1–72"), Type::Integer, 1, 1, 72, 0),
        field("source", QObject::tr("Source"), {}, QObject::tr("Where the figures come from"), Type::Text),
    };
}

std::vector<CatalogField> modelFields()
{
    std::vector<CatalogField> fields = {
        field("id", QObject::tr("Id"), {}, QObject::tr("Stable key: lowercase letters, digits, '.', '-', '_'"), Type::Text),
        field("name", QObject::tr("Name"), {}, QObject::tr("Display name"), Type::Text),
        field("params_total", QObject::tr("Parameters"), "B", QObject::tr("All parameters, in billions; sets weight memory"), Type::Number, 1e9, 0.001, 100000, 3),
        field("params_active", QObject::tr("Active"), "B", QObject::tr("Parameters used per token, in billions (MoE); equals the total for dense models"), Type::Number, 1e9, 0.001, 100000, 3),
        field("layers", QObject::tr("Layers"), {}, QObject::tr("Transformer layers"), Type::Integer, 1, 1, 1000),
        field("hidden_size", QObject::tr("Hidden"), {}, QObject::tr("Hidden size (model dimension)"), Type::Integer, 1, 1, 1000000),
        field("attention_heads", QObject::tr("Heads"), {}, QObject::tr("Attention (query) heads"), Type::Integer, 1, 1, 10000),
        field("kv_heads", QObject::tr("KV heads"), {}, QObject::tr("Key/value heads: equal to heads for MHA, fewer for GQA, 1 for MQA"), Type::Integer, 1, 1, 10000),
        field("head_dim", QObject::tr("Head dim"), {}, QObject::tr("Dimension of one attention head"), Type::Integer, 1, 1, 10000),
        field("attention", QObject::tr("Attention"), {}, QObject::tr("mha/gqa/mqa cache K and V per KV head; mla caches a compressed latent"), Type::Choice),
        field("kv_lora_rank", QObject::tr("MLA rank"), {}, QObject::tr("MLA latent (kv_lora_rank); 0 for other attention kinds"), Type::Integer, 1, 0, 100000),
        field("qk_rope_head_dim", QObject::tr("MLA RoPE dim"), {}, QObject::tr("MLA decoupled RoPE key dimension; 0 for other attention kinds"), Type::Integer, 1, 0, 100000),
        field("sliding_window", QObject::tr("Window"), "tokens", QObject::tr("Tokens a sliding-window layer holds; 0 = no sliding window"), Type::Integer, 1, 0, 100000000),
        field("sliding_layers", QObject::tr("Window layers"), {}, QObject::tr("How many layers use the sliding window; 0 = none"), Type::Integer, 1, 0, 1000),
        field("max_context", QObject::tr("Max context"), "tokens", QObject::tr("Longest context the model supports"), Type::Integer, 1, 1, 100000000),
        field("source", QObject::tr("Source"), {}, QObject::tr("Where the figures come from"), Type::Text),
    };
    for (CatalogField &f : fields)
        if (f.key == QLatin1String("attention"))
            f.choices = {"mha", "gqa", "mqa", "mla"};
    return fields;
}

QString arrayKey(CatalogKind kind)
{
    return kind == CatalogKind::Gpus ? QStringLiteral("gpus") : QStringLiteral("models");
}

store::Catalog parseEntries(CatalogKind kind, const std::vector<QJsonObject> &entries)
{
    QJsonArray array;
    for (const QJsonObject &e : entries)
        array.append(e);
    const QJsonObject root{{arrayKey(kind), array}};
    return store::parseCatalog(QJsonDocument(root).toJson(QJsonDocument::Compact),
                               QObject::tr("catalog entry"));
}

} // namespace

const std::vector<CatalogField> &catalogFields(CatalogKind kind)
{
    static const std::vector<CatalogField> gpus = gpuFields();
    static const std::vector<CatalogField> models = modelFields();
    return kind == CatalogKind::Gpus ? gpus : models;
}

QString catalogKindName(CatalogKind kind, int count)
{
    if (kind == CatalogKind::Gpus)
        return count == 1 ? QObject::tr("GPU") : QObject::tr("GPUs");
    return count == 1 ? QObject::tr("model") : QObject::tr("models");
}

std::vector<QJsonObject> catalogEntries(const store::Workspace &workspace, CatalogKind kind)
{
    std::vector<QJsonObject> out;
    if (kind == CatalogKind::Gpus) {
        for (const auto &g : workspace.gpus())
            out.push_back(store::gpuToJson(g));
    } else {
        for (const auto &m : workspace.models())
            out.push_back(store::modelToJson(m));
    }
    return out;
}

std::optional<QJsonObject> catalogEntry(const store::Workspace &workspace, CatalogKind kind, const QString &id)
{
    if (kind == CatalogKind::Gpus) {
        if (auto g = workspace.gpu(id))
            return store::gpuToJson(*g);
    } else if (auto m = workspace.model(id)) {
        return store::modelToJson(*m);
    }
    return std::nullopt;
}

void validateCatalogEntry(CatalogKind kind, const QJsonObject &entry)
{
    parseEntries(kind, {entry});
}

void putCatalogEntries(store::Workspace &workspace, CatalogKind kind, const std::vector<QJsonObject> &entries)
{
    const store::Catalog catalog = parseEntries(kind, entries);
    workspace.putCatalog(catalog.gpus, catalog.models);
}

void removeCatalogEntry(store::Workspace &workspace, CatalogKind kind, const QString &id)
{
    if (kind == CatalogKind::Gpus)
        workspace.removeGpu(id);
    else
        workspace.removeModel(id);
}

} // namespace headroom::ui
