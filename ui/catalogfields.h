#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

enum class CatalogKind { Gpus, Models };

// One field of a catalog entry as the editor shows it. Entries travel as the catalog JSON
// objects of core/store (the same keys as data/*.json), so the store's parser validates
// every edit and names the field that is wrong.
struct CatalogField {
    enum class Type { Text, Integer, Number, Choice };
    QString key;        // JSON key
    QString label;      // column header / form label
    QString unit;       // shown after the value, e.g. "GiB"
    QString tooltip;
    Type type = Type::Text;
    double scale = 1;   // stored value = shown value × scale (GiB → bytes, B → parameters)
    double minimum = 0;
    double maximum = 1e12;
    int decimals = 0;
    QStringList choices;
    bool inTable = true;

    QString header() const { return unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit); }
};

const std::vector<CatalogField> &catalogFields(CatalogKind kind);
QString catalogKindName(CatalogKind kind, int count); // "GPU" / "GPUs", "model" / "models"

// Entries of the workspace as catalog JSON objects, ordered by id.
std::vector<QJsonObject> catalogEntries(const store::Workspace &workspace, CatalogKind kind);
std::optional<QJsonObject> catalogEntry(const store::Workspace &workspace, CatalogKind kind, const QString &id);
// Validates through the store's catalog parser and writes; throws store::StoreError.
void putCatalogEntries(store::Workspace &workspace, CatalogKind kind, const std::vector<QJsonObject> &entries);
void removeCatalogEntry(store::Workspace &workspace, CatalogKind kind, const QString &id);
// Throws store::StoreError naming the field when `entry` is not a valid entry.
void validateCatalogEntry(CatalogKind kind, const QJsonObject &entry);

} // namespace headroom::ui
