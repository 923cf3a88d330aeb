#include "linkcommand.h"

#include "cli/common/args.h"
#include "cli/common/format.h"

#include "engine/common/errors.h"
#include "engine/partitioning/mig.h"

#include <QJsonObject>
#include <cstdio>

namespace headroom::cli {

namespace {

const char kUsage[] = R"(usage: headroom link-time --bytes N (--link pcie4|pcie5|nvlink-h100|ib-400g | --gbps F) [--json]

Time to move N bytes over an interconnect: seconds = bytes / (GB/s × 10^9). What a cold swap
of unified-memory over-commit costs, or the interconnect tax of moving a shard of weights.

links:
  pcie4          PCIe 4.0 x16, 32 GB/s
  pcie5          PCIe 5.0 x16, 64 GB/s
  nvlink-h100    NVLink 4 on H100, 900 GB/s
  ib-400g        400G InfiniBand, 50 GB/s
options:
  --bytes N      bytes to move (a whole or decimal number, e.g. 5000000000 or 5e9)
  --link NAME    one of the links above
  --gbps F       any other bandwidth, GB/s (10^9 bytes per second)
  --json         print {"seconds": number, "bytes", "gbps", "link"}

5 GB over PCIe 4.0 takes 0.156 s; 70 GB takes 2.188 s over PCIe 4.0, 0.078 s over NVLink
and 1.400 s over 400G InfiniBand.
)";

QString linkNames()
{
    QStringList names;
    for (const engine::LinkPreset &preset : engine::linkPresets())
        names << QString::fromStdString(preset.id);
    return names.join(QLatin1String(", "));
}

// Three decimals, ties to even on the exact binary value as printf rounds: 5 GB over
// 32 GB/s = 0.15625 s → "0.156" (DESIGN's 156 ms), 70 GB over 32 GB/s = 2.1875 s → "2.188".
QString secondsText(double seconds)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3f", seconds);
    return QString::fromLatin1(buffer);
}

int runLinkTime(const QStringList &argv, Context &context)
{
    const Args args(argv, {{QStringLiteral("bytes")}, {QStringLiteral("link")}, {QStringLiteral("gbps")},
                           {QStringLiteral("json"), false}});
    if (!args.positionals().isEmpty())
        throw UsageError(QStringLiteral("link-time takes no positional arguments, got '%1'")
                             .arg(args.positionals().constFirst()));
    const auto bytes = args.number(QStringLiteral("bytes"));
    if (!bytes)
        throw UsageError(QStringLiteral("--bytes is required"));
    if (*bytes < 0)
        throw UsageError(QStringLiteral("--bytes: must be 0 or more, got %1").arg(*bytes));
    const auto link = args.text(QStringLiteral("link"));
    const auto gbpsOption = args.number(QStringLiteral("gbps"));
    if (link && gbpsOption)
        throw UsageError(QStringLiteral("give either --link or --gbps, not both"));
    if (!link && !gbpsOption)
        throw UsageError(QStringLiteral("give --link (%1) or --gbps F").arg(linkNames()));

    QString linkName;
    double gbps = 0;
    if (link) {
        const engine::LinkPreset *preset = engine::findLinkPreset(link->toLower().toStdString());
        if (!preset)
            throw UsageError(QStringLiteral("--link: unknown link '%1'; known: %2").arg(*link, linkNames()));
        linkName = QString::fromStdString(preset->name);
        gbps = preset->gbps;
    } else {
        if (!(*gbpsOption > 0))
            throw UsageError(QStringLiteral("--gbps: must be more than 0, got %1").arg(*gbpsOption));
        gbps = *gbpsOption;
        linkName = QStringLiteral("the link");
    }
    const double seconds = engine::linkSeconds(*bytes, gbps);

    if (args.has(QStringLiteral("json"))) {
        QJsonObject json{{QStringLiteral("seconds"), seconds},
                         {QStringLiteral("bytes"), *bytes},
                         {QStringLiteral("gbps"), gbps}};
        if (link)
            json.insert(QStringLiteral("link"), link->toLower());
        context.out() << jsonText(json);
        return 0;
    }
    context.out() << QStringLiteral("%1 bytes (%2 GB) over %3 at %4 GB/s: %5 s\n")
                         .arg(formatDecimal(*bytes, 0), formatDecimal(*bytes / 1e9, 3), linkName,
                              formatDecimal(gbps, 3), secondsText(seconds));
    return 0;
}

} // namespace

Command linkTimeCommand()
{
    return {QStringLiteral("link-time"), QStringLiteral("seconds to move bytes over PCIe, NVLink or InfiniBand"),
            QString::fromUtf8(kUsage), &runLinkTime};
}

} // namespace headroom::cli
