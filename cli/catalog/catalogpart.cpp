#include "catalogpart.h"

#include "cli/common/args.h"
#include "store/common/workspace.h"

namespace headroom::cli {

CatalogPart parseCatalogPart(const QString &text, bool allowBoth)
{
    if (text == QLatin1String("gpus"))
        return CatalogPart::Gpus;
    if (text == QLatin1String("models"))
        return CatalogPart::Models;
    if (allowBoth && text == QLatin1String("catalog"))
        return CatalogPart::Both;
    throw UsageError(QStringLiteral("unknown catalog part '%1'; expected %2")
                         .arg(text, allowBoth ? QStringLiteral("gpus, models or catalog")
                                              : QStringLiteral("gpus or models")));
}

store::Catalog catalogPart(const store::Workspace &workspace, CatalogPart part)
{
    store::Catalog catalog;
    if (part != CatalogPart::Models)
        catalog.gpus = workspace.gpus();
    if (part != CatalogPart::Gpus)
        catalog.models = workspace.models();
    return catalog;
}

} // namespace headroom::cli
