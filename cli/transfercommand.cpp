#include "transfercommand.h"

#include "args.h"
#include "catalogpart.h"
#include "format.h"
#include "scenariocommand.h"

#include "store/catalogjson.h"
#include "store/importlimits.h"
#include "store/scenariojson.h"
#include "store/storeerror.h"
#include "store/workspace.h"

#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <optional>

namespace headroom::cli {

namespace {

const char kImportUsage[] = R"(usage: headroom import FILE.json

Adds the GPUs and models of a catalog JSON file ({"gpus": [...], "models": [...]}, the
format of `headroom export`) to the workspace, replacing entries with the same id. Every
entry is checked first; a bad file changes nothing and the error names the entry and field.

A fleet scenario document ({"name", "rate_card", "pools", ...}, the format of `headroom
export scenario NAME`) is stored as a scenario instead, replacing one of the same name (its
version goes up by one). Workloads, rate cards and jobs it names need not exist.
)";

const char kExportUsage[] = R"(usage: headroom export [gpus|models|catalog] [--out FILE]
       headroom export scenario NAME [--out FILE]

Writes the workspace catalog (default: all of it), or one fleet scenario's JSON document, to
stdout or to FILE.
)";

// The scenario in a file that holds a scenario document; nullopt for anything else (a
// catalog, or a file the catalog reader will report on).
std::optional<engine::Scenario> scenarioFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = store::readImportFile(file, path, store::limits::kScenarioJson);
    const QJsonDocument document = QJsonDocument::fromJson(bytes);
    if (!document.isObject() || !store::isScenarioJson(document.object()))
        return std::nullopt;
    return store::parseScenario(bytes, path);
}

void writeOut(Context &context, const std::optional<QString> &outPath, const QByteArray &json)
{
    if (!outPath) {
        context.out() << QString::fromUtf8(json);
        return;
    }
    QSaveFile file(*outPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit())
        throw store::StoreError(QStringLiteral("cannot write '%1': %2").arg(*outPath, file.errorString()));
}

QString summary(const store::Catalog &catalog)
{
    return QStringLiteral("%1 and %2").arg(countOf(qint64(catalog.gpus.size()), QStringLiteral("GPU"), QStringLiteral("GPUs")),
                                           countOf(qint64(catalog.models.size()), QStringLiteral("model"), QStringLiteral("models")));
}

int runImport(const QStringList &argv, Context &context)
{
    const Args args(argv, {});
    if (args.positionals().size() != 1)
        throw UsageError(QStringLiteral("import needs exactly one FILE.json"));
    if (const auto scenario = scenarioFile(args.positionals().constFirst())) {
        context.workspace().putScenario(*scenario);
        const QString name = QString::fromStdString(scenario->name);
        context.out() << QStringLiteral("imported scenario \"%1\" (version %2) into %3\n")
                             .arg(name)
                             .arg(context.workspace().scenarioSummary(name)->version)
                             .arg(context.workspace().path());
        return 0;
    }
    // Read and check the whole file before the workspace is touched.
    const store::Catalog catalog = store::readCatalogFile(args.positionals().constFirst());
    context.workspace().putCatalog(catalog.gpus, catalog.models);
    context.out() << QStringLiteral("imported %1 into %2\n")
                         .arg(summary(catalog), context.workspace().path());
    return 0;
}

int runExport(const QStringList &argv, Context &context)
{
    const Args args(argv, {{QStringLiteral("out")}});
    if (!args.positionals().isEmpty() && args.positionals().constFirst() == QLatin1String("scenario")) {
        if (args.positionals().size() != 2)
            throw UsageError(QStringLiteral("export scenario needs exactly one scenario NAME"));
        const QString name = args.positionals().at(1);
        const engine::Scenario scenario = findScenario(context.workspace(), name);
        const auto outPath = args.text(QStringLiteral("out"));
        writeOut(context, outPath, store::scenarioJsonText(scenario));
        if (outPath)
            context.out() << QStringLiteral("exported scenario \"%1\" to %2\n").arg(name, *outPath);
        return 0;
    }
    if (args.positionals().size() > 1)
        throw UsageError(QStringLiteral("export takes at most one of: gpus, models, catalog"));
    const CatalogPart part = args.positionals().isEmpty()
        ? CatalogPart::Both
        : parseCatalogPart(args.positionals().constFirst(), true);
    const store::Catalog catalog = catalogPart(context.workspace(), part);
    const QByteArray json = store::catalogToJson(catalog);

    const auto outPath = args.text(QStringLiteral("out"));
    if (!outPath) {
        context.out() << QString::fromUtf8(json);
        return 0;
    }
    QSaveFile file(*outPath);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit()) {
        throw store::StoreError(QStringLiteral("cannot write '%1': %2").arg(*outPath, file.errorString()));
    }
    context.out() << QStringLiteral("exported %1 to %2\n").arg(summary(catalog), *outPath);
    return 0;
}

} // namespace

Command importCommand()
{
    return {QStringLiteral("import"), QStringLiteral("add GPUs and models from a catalog JSON file"),
            QString::fromUtf8(kImportUsage), &runImport};
}

Command exportCommand()
{
    return {QStringLiteral("export"), QStringLiteral("write the catalog as JSON to stdout or a file"),
            QString::fromUtf8(kExportUsage), &runExport};
}

} // namespace headroom::cli
