#pragma once

#include "engine/catalog/ratecard.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace headroom::store {
class Workspace;
}

namespace headroom::ui {

// The editable tables of the workspace: catalogs and rate cards share one editing machinery
// (table model, entry form, undo command) over JSON objects.
enum class CatalogKind { Gpus, Models, RateCards };

// One field of a catalog entry as the editor shows it. Entries travel as the catalog JSON
// objects of core/store (the same keys as data/*.json), so the store's parser validates
// every edit and names the field that is wrong.
struct CatalogField {
    enum class Type { Text, Integer, Number, Decimal, Choice }; // Decimal: exact, kept as text
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
    bool identity = false; // part of the entry's id: fixed once the entry exists
    bool omitEmpty = false; // an optional key: left out of the entry while empty (a number: while 0)
    // A Choice whose first choice means the entry holds the object named by `key` (its fields
    // are the keys "key.name" that follow) and whose second means it does not.
    bool presence = false;
    QString page;       // the entry form's tab; empty: the first

    QString header() const { return unit.isEmpty() ? label : QStringLiteral("%1 (%2)").arg(label, unit); }
};

const std::vector<CatalogField> &catalogFields(CatalogKind kind);

// The field's value in an entry. A key "object.name" reads inside the nested object; a
// presence field gives its first choice when the entry holds the object, else its second.
QJsonValue entryValue(const QJsonObject &entry, const CatalogField &field);
// Sets it. A presence field's second choice removes the object, its first makes an empty one
// when there is none; a nested key is written only while the entry holds its object, so the
// presence field comes before the fields it governs.
void setEntryValue(QJsonObject &entry, const CatalogField &field, const QJsonValue &value);
QString catalogKindName(CatalogKind kind, int count); // "GPU" / "GPUs", "rate card" / "rate cards"

// Stable id of an entry: "id" for GPUs and models, provider/region/gpu@date for rate cards.
QString catalogEntryId(CatalogKind kind, const QJsonObject &entry);

// Entries of the workspace as catalog JSON objects, ordered by id.
std::vector<QJsonObject> catalogEntries(const store::Workspace &workspace, CatalogKind kind);
std::optional<QJsonObject> catalogEntry(const store::Workspace &workspace, CatalogKind kind, const QString &id);
// Validates through the store's catalog parser and writes; throws store::StoreError.
void putCatalogEntries(store::Workspace &workspace, CatalogKind kind, const std::vector<QJsonObject> &entries);
void removeCatalogEntry(store::Workspace &workspace, CatalogKind kind, const QString &id);
// Rate card as an entry object (keys as the rate card CSV columns).
QJsonObject rateCardToJson(const engine::RateCard &card);

// Throws store::StoreError naming the field when `entry` is not a valid entry.
void validateCatalogEntry(CatalogKind kind, const QJsonObject &entry);

} // namespace headroom::ui
