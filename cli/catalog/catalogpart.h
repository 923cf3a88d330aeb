#pragma once

#include "store/catalog/catalogjson.h"

#include <QString>

namespace headroom::store {
class Workspace;
}

namespace headroom::cli {

// Which part of the catalog a verb works on.
enum class CatalogPart { Gpus, Models, Both };

// Parses "gpus", "models" or (when allowBoth) "catalog"; throws UsageError otherwise.
CatalogPart parseCatalogPart(const QString &text, bool allowBoth);
// The workspace catalog restricted to `part`.
store::Catalog catalogPart(const store::Workspace &workspace, CatalogPart part);

} // namespace headroom::cli
