#include "transfercommand.h"

#include "cli/common/args.h"
#include "catalogpart.h"
#include "cli/common/format.h"
#include "cli/common/outputfile.h"
#include "cli/fleet/scenariocommand.h"

#include "store/catalog/catalogjson.h"
#include "store/common/importlimits.h"
#include "store/fleet/scenariojson.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QFile>
#include <QJsonDocument>
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

A missing --workspace file is created (seeded with the shipped catalogs) for the import, and
removed again if the import fails.
)";

const char kExportUsage[] = R"(usage: headroom export [gpus|models|catalog] [--out FILE [--force]]
       headroom export scenario NAME [--out FILE [--force]]

Writes the workspace catalog (default: all of it), or one fleet scenario's JSON document, to
stdout or to FILE.

  --out FILE   the file to write: written in full to a temporary file beside it, then
               renamed into place, so a failed export leaves no partial file. A symbolic
               link at FILE is refused (name the file it points to instead).
  --force      replace FILE when it exists (without it an existing file is left as it is
               and the command exits 2)
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

// The output file, checked before the export is built; nullopt for stdout.
struct OutFile {
    QString path;
    store::ExistingFile existing = store::ExistingFile::Refuse;
};

std::optional<OutFile> outFile(const Args &args)
{
    const auto path = args.text(QStringLiteral("out"));
    if (!path) {
        if (args.has(QStringLiteral("force")))
            throw UsageError(QStringLiteral("--force: only with --out FILE (it allows replacing FILE)"));
        return std::nullopt;
    }
    if (path->isEmpty())
        throw UsageError(QStringLiteral("--out: missing file name"));
    return OutFile{*path, checkOutputFile(QStringLiteral("--out"), *path, args.has(QStringLiteral("force")))};
}

void writeOut(Context &context, const std::optional<OutFile> &out, const QByteArray &json)
{
    if (!out) {
        context.out() << QString::fromUtf8(json);
        return;
    }
    store::writeExportFile(out->path, json, out->existing);
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
    const Args args(argv, {{QStringLiteral("out")}, {QStringLiteral("force"), false}});
    const std::optional<OutFile> out = outFile(args);
    if (!args.positionals().isEmpty() && args.positionals().constFirst() == QLatin1String("scenario")) {
        if (args.positionals().size() != 2)
            throw UsageError(QStringLiteral("export scenario needs exactly one scenario NAME"));
        const QString name = args.positionals().at(1);
        const engine::Scenario scenario = findScenario(context.workspace(), name);
        writeOut(context, out, store::scenarioJsonText(scenario));
        if (out)
            context.out() << QStringLiteral("exported scenario \"%1\" to %2\n").arg(name, out->path);
        return 0;
    }
    if (args.positionals().size() > 1)
        throw UsageError(QStringLiteral("export takes at most one of: gpus, models, catalog"));
    const CatalogPart part = args.positionals().isEmpty()
        ? CatalogPart::Both
        : parseCatalogPart(args.positionals().constFirst(), true);
    const store::Catalog catalog = catalogPart(context.workspace(), part);
    const QByteArray json = store::catalogToJson(catalog);

    writeOut(context, out, json);
    if (!out)
        return 0;
    context.out() << QStringLiteral("exported %1 to %2\n").arg(summary(catalog), out->path);
    return 0;
}

} // namespace

Command importCommand()
{
    return {QStringLiteral("import"), QStringLiteral("add GPUs and models from a catalog JSON file"),
            QString::fromUtf8(kImportUsage), &runImport, true};
}

Command exportCommand()
{
    return {QStringLiteral("export"), QStringLiteral("write the catalog as JSON to stdout or a file"),
            QString::fromUtf8(kExportUsage), &runExport};
}

} // namespace headroom::cli
