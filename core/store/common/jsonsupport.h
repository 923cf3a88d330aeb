#pragma once

#include "engine/catalog/specs.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// Small JSON helpers for the store's readers: how a value is described in an error message
// and where a parse error sits in the text.
namespace headroom::store {

struct ImportLimits;

// "a number", "a string", "null", ... for "expected a number, got a string".
QString jsonTypeName(const QJsonValue &value);
// The text in double quotes: "name".
QString quoted(const QString &text);
// A value from the file in double quotes, cut as shownValue() does: "abc…".
QString quotedValue(const QString &text);
// The longest string value (an id, a name, a note) an imported JSON document may hold.
constexpr qsizetype kMaxJsonStringChars = 4096;
// The message for a string value longer than kMaxJsonStringChars (the caller names the field).
QString jsonStringTooLongMessage(const QString &text);
// Parses a whole document; throws StoreError("<source>: line L, column C (byte B): <reason>").
// What is wrong with a JSON text, in a reader's words ("a list opened with [ is not closed"), for
// Qt's parse error.
QString jsonProblem(const QJsonParseError &error);

QJsonDocument parseJsonDocument(const QByteArray &json, const QString &sourceName);
// The same after checking the document's size against `limits` (see importlimits.h).
QJsonDocument parseJsonDocument(const QByteArray &json, const QString &sourceName,
                                const ImportLimits &limits);
// One JSON scalar in its compact text form, escaped as QJsonDocument does.
QByteArray jsonScalarText(const QJsonValue &value);

// Reads the fields of one JSON object describing an entity (a workload, a training job):
// absent or null fields take their default, and every failure throws StoreError naming the
// source, the entity ("<kind> \"<name>\"") and the field.
class JsonFieldReader {
public:
    JsonFieldReader(const QJsonObject &object, const QString &source, const QString &kind);

    [[noreturn]] void fail(const QString &message) const;
    [[noreturn]] void failField(const QString &field, const QString &message) const;
    // Refuses keys not in `known` (listing the known ones) and missing `required` keys.
    void checkKeys(const QStringList &known, const QStringList &required) const;
    // Present and not null.
    bool has(const QString &key) const;
    QJsonValue value(const QString &key) const { return m_object.value(key); }

    std::string string(const QString &key, const std::string &fallback = {}) const;
    double number(const QString &key, double fallback = 0) const;
    int64_t integer64(const QString &key, int64_t fallback = 0) const;
    int integer(const QString &key, int fallback) const;
    bool boolean(const QString &key, bool fallback) const;

    // An enum spelled as text; `allowed` lists the spellings for the message.
    template <typename Enum, typename Parse>
    Enum choice(const QString &key, Enum fallback, Parse parse, const QString &allowed) const
    {
        if (!has(key))
            return fallback;
        const std::string text = string(key);
        const std::optional<Enum> parsed = parse(text);
        if (!parsed)
            failField(key, QStringLiteral("expected one of %1, got %2").arg(allowed, quotedValue(QString::fromStdString(text))));
        return *parsed;
    }

    // The first problem of an engine validate(), as a field failure.
    void checkProblems(const std::vector<engine::FieldProblem> &problems) const;

private:
    const QJsonObject &m_object;
    QString m_location;
};

} // namespace headroom::store
