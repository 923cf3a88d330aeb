#include "transfercommand.h"

#include "args.h"
#include "catalogpart.h"
#include "format.h"

#include "store/catalogjson.h"
#include "store/storeerror.h"
#include "store/workspace.h"

#include <QSaveFile>

namespace headroom::cli {

namespace {

const char kImportUsage[] = R"(usage: headroom import FILE.json

Adds the GPUs and models of a catalog JSON file ({"gpus": [...], "models": [...]}, the
format of `headroom export`) to the workspace, replacing entries with the same id. Every
entry is checked first; a bad file changes nothing and the error names the entry and field.
)";

const char kExportUsage[] = R"(usage: headroom export [gpus|models|catalog] [--out FILE]

Writes the workspace catalog (default: all of it) as JSON to stdout or to FILE.
)";

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
