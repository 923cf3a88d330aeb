#include "catalogfields.h"

#include "store/catalog/catalogjson.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

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
    std::vector<CatalogField> fields = {
        field("id", QObject::tr("Id"), {}, QObject::tr("Stable key: lowercase letters, digits, '.', '-', '_'"), Type::Text),
        field("name", QObject::tr("Name"), {}, QObject::tr("Display name"), Type::Text),
        field("vendor", QObject::tr("Vendor"), {}, QObject::tr("Manufacturer"), Type::Text),
        field("dra_product_name", QObject::tr("DRA product name"), {},
              QObject::tr("The productName its Kubernetes DRA driver publishes, exactly: for NVIDIA the name "
                          "nvidia-smi shows (\"NVIDIA H100 80GB HBM3\"), for AMD the board's product name with '_' "
                          "for spaces (\"AMD_Instinct_MI300X_OAM\"). Empty: no DRA claims for this GPU"),
              Type::Text),
        field("memory_bytes", QObject::tr("Memory"), "GiB", QObject::tr("Memory as the driver reports it (nvidia-smi total), in GiB = 2^30 bytes"), Type::Number, kGiB, 0.01, 4096, 2),
        field("memory_nominal_gb", QObject::tr("Nominal memory"), "GB", QObject::tr("Memory as sold, e.g. 80 GB"), Type::Number, 1, 0.01, 4096, 0),
        field("hbm_bandwidth_gbps", QObject::tr("HBM bandwidth"), "GB/s", QObject::tr("Memory bandwidth in GB/s (10^9 bytes per second)"), Type::Number, 1, 0.01, 100000, 0),
        field("bf16_tflops", QObject::tr("BF16"), "TFLOPS", QObject::tr("Dense BF16 tensor throughput, TFLOPS (no sparsity)"), Type::Number, 1, 0.01, 100000, 1),
        field("fp8_tflops", QObject::tr("FP8"), "TFLOPS", QObject::tr("Dense FP8 tensor throughput, TFLOPS; 0 when the GPU has no FP8"), Type::Number, 1, 0, 100000, 1),
        field("fp4_tflops", QObject::tr("FP4"), "TFLOPS", QObject::tr("Dense FP4 tensor throughput (NVFP4, MXFP4), TFLOPS; 0 when the GPU has no FP4"), Type::Number, 1, 0, 100000, 1),
        field("nvlink_gbps", QObject::tr("NVLink"), "GB/s", QObject::tr("GPU-to-GPU link bandwidth, total per GPU in GB/s; 0 when none"), Type::Number, 1, 0, 100000, 0),
        field("pcie_gbps", QObject::tr("PCIe"), "GB/s", QObject::tr("Host link bandwidth per direction, GB/s (PCIe 4.0 x16 = 32, 5.0 = 64)"), Type::Number, 1, 0.01, 10000, 0),
        field("tdp_w", QObject::tr("TDP"), "W", QObject::tr("Board power, watts"), Type::Number, 1, 1, 10000, 0),
        field("gpus_per_node", QObject::tr("GPUs/node"), {}, QObject::tr("GPUs in a typical server, 1–72"), Type::Integer, 1, 1, 72, 0),
        field("source", QObject::tr("Source"), {}, QObject::tr("Where the figures come from"), Type::Text),
        field("efficiency", QObject::tr("Serving profile"), {},
              QObject::tr("measured: the step-cost model uses the efficiencies below for this GPU; none: the "
                          "workspace's serving assumptions (their prefill and decode efficiencies)"),
              Type::Choice),
        // The step-cost model's efficiencies (README "The step-cost model"), ranges as the catalog checks them.
        field("efficiency.bandwidth", QObject::tr("η bandwidth"), QObject::tr("share"), QObject::tr("Share of HBM bandwidth the weights stream at in a decode pass, 0.01–1"), Type::Number, 1, 0, 1, 3),
        field("efficiency.kv_bandwidth", QObject::tr("η KV reads"), QObject::tr("share"), QObject::tr("Share of HBM bandwidth attention's KV reads stream at, 0.01–1"), Type::Number, 1, 0, 1, 3),
        field("efficiency.matmul_small", QObject::tr("η matmul, 1 token"), QObject::tr("share"), QObject::tr("Share of peak TFLOPS the linear layers reach in a pass of one token, 0–1"), Type::Number, 1, 0, 1, 3),
        field("efficiency.matmul_peak", QObject::tr("η matmul, large"), QObject::tr("share"), QObject::tr("Share of peak TFLOPS the linear layers reach in large passes, 0.01–1"), Type::Number, 1, 0, 1, 3),
        field("efficiency.matmul_half_tokens", QObject::tr("η matmul half-way"), QObject::tr("tokens"), QObject::tr("Tokens per pass where the matmul efficiency is half-way between the two, 0–1,000,000"), Type::Number, 1, 0, 1e6, 0),
        field("efficiency.matmul_peak_fp8", QObject::tr("η matmul FP8, large"), QObject::tr("share"), QObject::tr("Share of FP8 peak TFLOPS the linear layers of FP8 weights reach in large passes, 0–1; 0: as BF16"), Type::Number, 1, 0, 1, 3),
        field("efficiency.matmul_half_tokens_fp8", QObject::tr("η matmul FP8 half-way"), QObject::tr("tokens"), QObject::tr("Tokens per pass where the FP8 matmul efficiency is half-way, 0–1,000,000"), Type::Number, 1, 0, 1e6, 0),
        field("efficiency.attention", QObject::tr("η attention"), QObject::tr("share"), QObject::tr("Share of BF16 peak that prefill attention reaches, 0.01–1"), Type::Number, 1, 0, 1, 3),
        field("efficiency.allreduce_latency_us", QObject::tr("All-reduce latency"), QStringLiteral("µs"), QObject::tr("Fixed time of one all-reduce between tensor-parallel GPUs, 0–10,000 µs"), Type::Number, 1, 0, 1e4, 1),
        field("efficiency.link", QObject::tr("η link"), QObject::tr("share"), QObject::tr("Share of the GPU link's one-direction bandwidth an all-reduce moves, 0.01–1"), Type::Number, 1, 0, 1, 3),
        field("efficiency.layer_overhead_us", QObject::tr("Per layer"), QStringLiteral("µs"), QObject::tr("Time per layer per pass beside streaming: kernel launches and tails, 0–10,000 µs"), Type::Number, 1, 0, 1e4, 1),
        field("efficiency.iteration_overhead_ms", QObject::tr("Per pass"), QStringLiteral("ms"), QObject::tr("Time per forward pass: scheduling, sampling, launches, 0–1,000 ms"), Type::Number, 1, 0, 1e3, 2),
        field("efficiency.sequence_overhead_us", QObject::tr("Per sequence"), QStringLiteral("µs"), QObject::tr("Host time per sequence sampled in a pass: scheduling, sampling, detokenizing, streaming, 0–10,000 µs"), Type::Number, 1, 0, 1e4, 1),
        field("efficiency.source", QObject::tr("Profile source"), {}, QObject::tr("Where the efficiencies come from (a calibration says \"calibrated for …\")"), Type::Text),
    };
    fields.front().identity = true;
    for (CatalogField &f : fields) {
        if (f.key == QLatin1String("dra_product_name")) {
            f.inTable = false;
            f.omitEmpty = true;
        }
        // Optional in the profile: 0 (FP8 matmuls as BF16) is left out, as the catalog file has it.
        if (f.key == QLatin1String("efficiency.matmul_peak_fp8") || f.key == QLatin1String("efficiency.matmul_half_tokens_fp8"))
            f.omitEmpty = true;
        if (f.key == QLatin1String("efficiency")) {
            f.choices = {QObject::tr("measured"), QObject::tr("none")};
            f.presence = true;
        }
        if (f.key.startsWith(QLatin1String("efficiency"))) {
            f.page = QObject::tr("Serving profile");
            f.inTable = f.presence;
        }
    }
    return fields;
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
        field("layer_types", QObject::tr("Layer kinds"), {}, QObject::tr("Each layer's kind in order (config.json layer_types): full, sliding, chunked or linear, "
                                                                        "'*N' to repeat, '( … )*N' to repeat a group, e.g. (linear*3,full)*12; empty = the window "
                                                                        "layers sliding and the rest full"), Type::Text),
        field("attention_chunk", QObject::tr("Chunk"), "tokens", QObject::tr("Tokens of a chunked layer's chunk (attention_chunk_size, Llama 4); it holds at most one chunk; 0 = none"), Type::Integer, 1, 0, 100000000),
        field("sink_tokens", QObject::tr("Sink tokens"), "tokens", QObject::tr("Tokens from the start a sliding layer also keeps (StreamingLLM sinks); 0 for learned per-head sinks (gpt-oss), which hold no KV"), Type::Integer, 1, 0, 1000000),
        field("state_bytes_per_layer", QObject::tr("State/layer"), "B", QObject::tr("A linear-attention or state-space layer's constant state per sequence at TP 1 (recurrent state + convolution state), bytes; 0 = none"), Type::Integer, 1, 0, 1099511627776.0),
        field("max_context", QObject::tr("Max context"), "tokens", QObject::tr("Longest context the model supports"), Type::Integer, 1, 1, 100000000),
        field("vocab_size", QObject::tr("Vocabulary"), "tokens", QObject::tr("Vocabulary size (config.json vocab_size): the LM head, vocabulary × hidden, runs only for sampled tokens; 0 = unknown, every parameter counted per token"), Type::Integer, 1, 0, 100000000),
        field("experts", QObject::tr("Experts"), {}, QObject::tr("Routed experts per MoE layer (n_routed_experts, num_local_experts); 0 for a dense model. Training shards the experts by the expert-parallel degree"), Type::Integer, 1, 0, 65536),
        field("experts_per_token", QObject::tr("Experts/token"), {}, QObject::tr("Routed experts each token visits (top-k, num_experts_per_tok); 0 for a dense model"), Type::Integer, 1, 0, 65535),
        field("source", QObject::tr("Source"), {}, QObject::tr("Where the figures come from"), Type::Text),
    };
    for (CatalogField &f : fields) {
        if (f.key == QLatin1String("attention"))
            f.choices = {"mha", "gqa", "mqa", "mla"};
        f.identity = f.key == QLatin1String("id");
    }
    return fields;
}

std::vector<CatalogField> rateCardFields()
{
    const QString perGpuHour = QObject::tr("per GPU-h");
    std::vector<CatalogField> fields = {
        field("provider", QObject::tr("Provider"), {}, QObject::tr("Cloud or vendor, e.g. AWS"), Type::Text),
        field("region", QObject::tr("Region"), {}, QObject::tr("Provider region, e.g. us-east-1"), Type::Text),
        field("gpu", QObject::tr("GPU"), {}, QObject::tr("Catalog GPU id, e.g. h100-sxm"), Type::Text),
        field("effective_date", QObject::tr("Effective"), {}, QObject::tr("Date the prices apply from, YYYY-MM-DD; older cards are kept as history"), Type::Text),
        field("instance_type", QObject::tr("Instance"), {}, QObject::tr("Instance type the per-GPU rate was derived from"), Type::Text),
        field("currency", QObject::tr("Currency"), {}, QObject::tr("ISO 4217 code, e.g. USD"), Type::Text),
        field("on_demand", QObject::tr("On-demand"), perGpuHour, QObject::tr("On-demand price per GPU-hour, exact decimal"), Type::Decimal),
        field("reserved_1y", QObject::tr("1-year"), perGpuHour, QObject::tr("Effective 1-year committed price per GPU-hour; 0 = not offered"), Type::Decimal),
        field("reserved_1y_upfront", QObject::tr("1-year upfront"), QObject::tr("share"), QObject::tr("Share of the 1-year commitment paid upfront, 0–1"), Type::Decimal),
        field("reserved_3y", QObject::tr("3-year"), perGpuHour, QObject::tr("Effective 3-year committed price per GPU-hour; 0 = not offered"), Type::Decimal),
        field("reserved_3y_upfront", QObject::tr("3-year upfront"), QObject::tr("share"), QObject::tr("Share of the 3-year commitment paid upfront, 0–1"), Type::Decimal),
        field("spot", QObject::tr("Spot"), perGpuHour, QObject::tr("Spot price per GPU-hour; 0 = not offered"), Type::Decimal),
        field("spot_interruption_rate", QObject::tr("Interruptions"), QObject::tr("per h"), QObject::tr("Expected spot interruptions per GPU-hour, 0–1"), Type::Decimal),
        field("lead_weeks", QObject::tr("Lead time"), QObject::tr("weeks"), QObject::tr("Weeks from ordering reserved capacity to having it, 0–104"), Type::Integer, 1, 0, 104),
        field("committed_are_examples", QObject::tr("Example rates"), {}, QObject::tr("yes when the committed rates are examples to replace with your negotiated ones"), Type::Choice),
        field("source", QObject::tr("Source"), {}, QObject::tr("Where the prices come from, with date"), Type::Text),
    };
    for (CatalogField &f : fields) {
        if (f.key == QLatin1String("committed_are_examples"))
            f.choices = {"yes", "no"};
        f.identity = f.key == QLatin1String("provider") || f.key == QLatin1String("region") ||
                     f.key == QLatin1String("gpu") || f.key == QLatin1String("effective_date");
    }
    return fields;
}

QString decimalText(const engine::Decimal &d)
{
    return QString::fromStdString(d.toString());
}

// Converts and validates; throws StoreError naming the field.
engine::RateCard rateCardFromJson(const QJsonObject &o)
{
    auto text = [&](const char *key) { return o.value(QLatin1String(key)).toString().trimmed().toStdString(); };
    auto decimal = [&](const char *key) {
        const std::string value = text(key);
        const auto parsed = engine::Decimal::parse(value);
        if (!parsed)
            throw store::StoreError(QObject::tr("field \"%1\": expected a decimal number such as 6.88, got \"%2\"")
                                        .arg(QLatin1String(key), QString::fromStdString(value)));
        return *parsed;
    };
    engine::RateCard c;
    c.provider = text("provider");
    c.region = text("region");
    c.gpuId = text("gpu");
    c.effectiveDate = text("effective_date");
    c.instanceType = text("instance_type");
    c.currency = text("currency");
    c.onDemand = decimal("on_demand");
    c.reserved1y = decimal("reserved_1y");
    c.reserved1yUpfront = decimal("reserved_1y_upfront");
    c.reserved3y = decimal("reserved_3y");
    c.reserved3yUpfront = decimal("reserved_3y_upfront");
    c.spot = decimal("spot");
    c.spotInterruptionRate = decimal("spot_interruption_rate");
    c.reservationLeadWeeks = o.value(QLatin1String("lead_weeks")).toInt();
    c.committedAreExamples = o.value(QLatin1String("committed_are_examples")).toString() != QLatin1String("no");
    c.source = text("source");
    const auto problems = engine::validate(c);
    if (!problems.empty())
        throw store::StoreError(QObject::tr("field \"%1\": %2")
                                    .arg(QString::fromStdString(problems.front().field),
                                         QString::fromStdString(problems.front().message)));
    return c;
}

std::vector<engine::RateCard> rateCardsFromJson(const std::vector<QJsonObject> &entries)
{
    std::vector<engine::RateCard> cards;
    for (const QJsonObject &e : entries)
        cards.push_back(rateCardFromJson(e));
    return cards;
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

QJsonValue entryValue(const QJsonObject &entry, const CatalogField &field)
{
    if (field.presence)
        return entry.value(field.key).isObject() ? field.choices.value(0) : field.choices.value(1);
    const qsizetype dot = field.key.indexOf(QLatin1Char('.'));
    if (dot < 0)
        return entry.value(field.key);
    return entry.value(field.key.left(dot)).toObject().value(field.key.mid(dot + 1));
}

void setEntryValue(QJsonObject &entry, const CatalogField &field, const QJsonValue &value)
{
    if (field.presence) {
        if (value.toString() != field.choices.value(0))
            entry.remove(field.key);
        else if (!entry.value(field.key).isObject())
            entry.insert(field.key, QJsonObject());
        return;
    }
    const qsizetype dot = field.key.indexOf(QLatin1Char('.'));
    if (field.omitEmpty && (value.isDouble() ? value.toDouble() == 0 : value.toString().isEmpty())) {
        if (dot < 0) {
            entry.remove(field.key);
        } else if (entry.value(field.key.left(dot)).isObject()) {
            QJsonObject object = entry.value(field.key.left(dot)).toObject();
            object.remove(field.key.mid(dot + 1));
            entry.insert(field.key.left(dot), object);
        }
        return;
    }
    if (dot < 0) {
        entry.insert(field.key, value);
        return;
    }
    const QString objectKey = field.key.left(dot);
    if (!entry.value(objectKey).isObject())
        return;
    QJsonObject object = entry.value(objectKey).toObject();
    object.insert(field.key.mid(dot + 1), value);
    entry.insert(objectKey, object);
}


const std::vector<CatalogField> &catalogFields(CatalogKind kind)
{
    static const std::vector<CatalogField> gpus = gpuFields();
    static const std::vector<CatalogField> models = modelFields();
    static const std::vector<CatalogField> rateCards = rateCardFields();
    switch (kind) {
    case CatalogKind::Gpus:
        return gpus;
    case CatalogKind::Models:
        return models;
    case CatalogKind::RateCards:
        break;
    }
    return rateCards;
}

QString catalogKindName(CatalogKind kind, int count)
{
    switch (kind) {
    case CatalogKind::Gpus:
        return count == 1 ? QObject::tr("GPU") : QObject::tr("GPUs");
    case CatalogKind::Models:
        return count == 1 ? QObject::tr("model") : QObject::tr("models");
    case CatalogKind::RateCards:
        break;
    }
    return count == 1 ? QObject::tr("rate card") : QObject::tr("rate cards");
}

QJsonObject rateCardToJson(const engine::RateCard &c)
{
    return {
        {"provider", QString::fromStdString(c.provider)},
        {"region", QString::fromStdString(c.region)},
        {"gpu", QString::fromStdString(c.gpuId)},
        {"effective_date", QString::fromStdString(c.effectiveDate)},
        {"instance_type", QString::fromStdString(c.instanceType)},
        {"currency", QString::fromStdString(c.currency)},
        {"on_demand", decimalText(c.onDemand)},
        {"reserved_1y", decimalText(c.reserved1y)},
        {"reserved_1y_upfront", decimalText(c.reserved1yUpfront)},
        {"reserved_3y", decimalText(c.reserved3y)},
        {"reserved_3y_upfront", decimalText(c.reserved3yUpfront)},
        {"spot", decimalText(c.spot)},
        {"spot_interruption_rate", decimalText(c.spotInterruptionRate)},
        {"lead_weeks", c.reservationLeadWeeks},
        {"committed_are_examples", c.committedAreExamples ? "yes" : "no"},
        {"source", QString::fromStdString(c.source)},
    };
}

QString catalogEntryId(CatalogKind kind, const QJsonObject &entry)
{
    if (kind != CatalogKind::RateCards)
        return entry.value(QStringLiteral("id")).toString();
    return QStringLiteral("%1/%2/%3@%4")
        .arg(entry.value(QStringLiteral("provider")).toString().trimmed(),
             entry.value(QStringLiteral("region")).toString().trimmed(),
             entry.value(QStringLiteral("gpu")).toString().trimmed(),
             entry.value(QStringLiteral("effective_date")).toString().trimmed());
}

std::vector<QJsonObject> catalogEntries(const store::Workspace &workspace, CatalogKind kind)
{
    std::vector<QJsonObject> out;
    if (kind == CatalogKind::RateCards) {
        for (const auto &c : workspace.rateCards())
            out.push_back(rateCardToJson(c));
    } else if (kind == CatalogKind::Gpus) {
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
    if (kind == CatalogKind::RateCards) {
        if (auto c = workspace.rateCard(id))
            return rateCardToJson(*c);
    } else if (kind == CatalogKind::Gpus) {
        if (auto g = workspace.gpu(id))
            return store::gpuToJson(*g);
    } else if (auto m = workspace.model(id)) {
        return store::modelToJson(*m);
    }
    return std::nullopt;
}

void validateCatalogEntry(CatalogKind kind, const QJsonObject &entry)
{
    if (kind == CatalogKind::RateCards)
        rateCardFromJson(entry);
    else
        parseEntries(kind, {entry});
}

void putCatalogEntries(store::Workspace &workspace, CatalogKind kind, const std::vector<QJsonObject> &entries)
{
    if (kind == CatalogKind::RateCards) {
        workspace.putRateCards(rateCardsFromJson(entries));
        return;
    }
    const store::Catalog catalog = parseEntries(kind, entries);
    workspace.putCatalog(catalog.gpus, catalog.models);
}

void removeCatalogEntry(store::Workspace &workspace, CatalogKind kind, const QString &id)
{
    switch (kind) {
    case CatalogKind::Gpus:
        workspace.removeGpu(id);
        break;
    case CatalogKind::Models:
        workspace.removeModel(id);
        break;
    case CatalogKind::RateCards:
        workspace.removeRateCard(id);
        break;
    }
}

} // namespace headroom::ui
