#include "catalogcommand.h"

#include "cli/common/args.h"
#include "catalogpart.h"
#include "cli/common/format.h"

#include "engine/inference/kv.h"
#include "store/catalog/catalogjson.h"

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom catalog gpus|models [--json]

Lists the GPUs or models of the workspace catalog with their key figures. Memory in GiB
(2^30 bytes), bandwidth in GB/s (10^9 bytes per second), dense TFLOPS, parameters in
billions. --json prints the catalog JSON, the format `headroom import` reads.
)";

QString orDash(double value, int decimals)
{
    return value > 0 ? formatDecimal(value, decimals) : QStringLiteral("-");
}

void writeGpus(QTextStream &out, const std::vector<engine::GpuSpec> &gpus)
{
    using A = Table::Align;
    Table table({{QStringLiteral("id")}, {QStringLiteral("name")},
                 {QStringLiteral("memory GiB"), A::Right}, {QStringLiteral("HBM GB/s"), A::Right},
                 {QStringLiteral("BF16 TFLOPS"), A::Right}, {QStringLiteral("FP8 TFLOPS"), A::Right},
                 {QStringLiteral("FP4 TFLOPS"), A::Right},
                 {QStringLiteral("NVLink GB/s"), A::Right}});
    for (const engine::GpuSpec &g : gpus) {
        table.addRow({QString::fromStdString(g.id), QString::fromStdString(g.name),
                      QString::number(double(g.memoryBytes) / double(engine::kGiB), 'f', 1),
                      orDash(g.hbmBandwidthGBps, 1), orDash(g.bf16Tflops, 1),
                      orDash(g.fp8Tflops, 1), orDash(g.fp4Tflops, 1), orDash(g.nvlinkGBps, 1)});
    }
    table.write(out);
}

void writeModels(QTextStream &out, const std::vector<engine::ModelSpec> &models)
{
    using A = Table::Align;
    Table table({{QStringLiteral("id")}, {QStringLiteral("name")},
                 {QStringLiteral("params B"), A::Right}, {QStringLiteral("layers"), A::Right},
                 {QStringLiteral("attention")}, {QStringLiteral("KV heads"), A::Right},
                 {QStringLiteral("head dim"), A::Right}, {QStringLiteral("max context"), A::Right}});
    for (const engine::ModelSpec &m : models) {
        QString params = formatDecimal(m.paramsTotal / 1e9, 1, true);
        if (m.isMoe())
            params += QStringLiteral(" (%1 active)").arg(formatDecimal(m.paramsActive / 1e9, 1, true));
        QString attention = QString::fromStdString(std::string(engine::toString(m.attention))).toUpper();
        if (m.attention == engine::AttentionKind::Mla)
            attention += QStringLiteral(" %1+%2").arg(m.kvLoraRank).arg(m.qkRopeHeadDim);
        if (m.isHybrid())
            attention += QStringLiteral(", %1 sliding (%2)").arg(m.slidingLayers).arg(formatInteger(m.slidingWindow));
        table.addRow({QString::fromStdString(m.id), QString::fromStdString(m.name), params,
                      QString::number(m.layers), attention, QString::number(m.kvHeads),
                      QString::number(m.headDim), formatInteger(m.maxContext)});
    }
    table.write(out);
}

int runCatalog(const QStringList &argv, Context &context)
{
    const Args args(argv, {{QStringLiteral("json"), false}});
    if (args.positionals().size() != 1)
        throw UsageError(QStringLiteral("catalog needs one of: gpus, models"));
    const CatalogPart part = parseCatalogPart(args.positionals().constFirst(), false);
    const store::Catalog catalog = catalogPart(context.workspace(), part);

    if (args.has(QStringLiteral("json"))) {
        context.out() << QString::fromUtf8(store::catalogToJson(catalog));
        return 0;
    }
    if (part == CatalogPart::Gpus)
        writeGpus(context.out(), catalog.gpus);
    else
        writeModels(context.out(), catalog.models);
    return 0;
}

} // namespace

Command catalogCommand()
{
    return {QStringLiteral("catalog"), QStringLiteral("list the GPUs or models of the workspace"),
            QString::fromUtf8(kUsage), &runCatalog};
}

} // namespace headroom::cli
