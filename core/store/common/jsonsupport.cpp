#include "jsonsupport.h"

#include "importlimits.h"
#include "storeerror.h"

#include <QJsonArray>
#include <QJsonParseError>
#include <cmath>
#include <limits>

namespace headroom::store {

QString jsonTypeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

QString quoted(const QString &text)
{
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString quotedValue(const QString &text)
{
    return quoted(shownValue(text));
}

QString jsonStringTooLongMessage(const QString &text)
{
    return QStringLiteral("%1 characters; a string may have at most %2 (see \"Import "
                          "limits\"); it starts %3")
        .arg(text.size())
        .arg(kMaxJsonStringChars)
        .arg(quotedValue(text));
}

QJsonDocument parseJsonDocument(const QByteArray &json, const QString &sourceName,
                                const ImportLimits &limits)
{
    checkImportBytes(json.size(), sourceName, limits);
    return parseJsonDocument(json, sourceName);
}

namespace {

// The byte offset of the first NUL character a JSON text holds, as a raw byte or as the escape
// \u0000 (not preceded by an escaping backslash), or -1.
qsizetype firstNul(const QByteArray &json)
{
    for (qsizetype i = 0; i < json.size(); ++i) {
        if (json.at(i) == '\0')
            return i;
        if (json.at(i) != '\\')
            continue;
        // An escape: "\\" is a backslash, "\u0000" a NUL; skip the escaped character.
        if (i + 5 < json.size() && json.at(i + 1) == 'u' && json.mid(i + 2, 4) == "0000")
            return i;
        ++i;
    }
    return -1;
}

} // namespace

QString jsonProblem(const QJsonParseError &error)
{
    switch (error.error) {
    case QJsonParseError::UnterminatedObject:
        return QStringLiteral("an object opened with { is not closed with }, or a comma is missing between its entries");
    case QJsonParseError::MissingNameSeparator:
        return QStringLiteral("a name in an object is not followed by a colon (:)");
    case QJsonParseError::UnterminatedArray:
        return QStringLiteral("a list opened with [ is not closed with ], or a comma is missing between its values");
    case QJsonParseError::MissingValueSeparator:
        return QStringLiteral("a comma is missing between two values");
    case QJsonParseError::IllegalValue:
    case QJsonParseError::IllegalNumber:  // Qt's word for any bare word, "wat" included
        return QStringLiteral("here is something that is not a value: a value is a number, text in double quotes, "
                              "true, false, null, an object or a list");
    case QJsonParseError::TerminationByNumber:
        return QStringLiteral("the text ends in the middle of a number");
    case QJsonParseError::IllegalEscapeSequence:
        return QStringLiteral("a backslash in quoted text that JSON does not allow (write \\\\ for a backslash)");
    case QJsonParseError::IllegalUTF8String:
        return QStringLiteral("quoted text that is not UTF-8");
    case QJsonParseError::UnterminatedString:
        return QStringLiteral("quoted text whose closing double quote is missing");
    case QJsonParseError::MissingObject:
        return QStringLiteral("a comma is not followed by another entry (remove the comma before a closing } or ])");
    case QJsonParseError::DeepNesting:
        return QStringLiteral("objects and lists nested too deeply");
    case QJsonParseError::DocumentTooLarge:
        return QStringLiteral("the text is too large to read");
    case QJsonParseError::GarbageAtEnd:
        return QStringLiteral("more text after the end of the JSON value");
    case QJsonParseError::NoError:
        break;
    }
    return error.errorString();
}

QJsonDocument parseJsonDocument(const QByteArray &json, const QString &sourceName)
{
    // Text may not hold U+0000 (a workspace on a server cannot store it): refused where it is.
    if (const qsizetype nul = firstNul(json); nul >= 0) {
        const QByteArray before = json.left(nul);
        throw StoreError(QStringLiteral("%1: line %2, column %3 (byte %4): a NUL character (U+0000); "
                                        "no text may hold one")
                             .arg(sourceName)
                             .arg(before.count('\n') + 1)
                             .arg(nul - (before.lastIndexOf('\n') + 1) + 1)
                             .arg(nul));
    }
    QJsonParseError error;
    QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        const QByteArray before = json.left(error.offset);
        const qsizetype line = before.count('\n') + 1;
        const qsizetype column = error.offset - (before.lastIndexOf('\n') + 1) + 1;
        throw StoreError(QStringLiteral("%1: line %2, column %3: not valid JSON: %4")
                             .arg(sourceName)
                             .arg(line)
                             .arg(column)
                             .arg(jsonProblem(error)));
    }
    return document;
}

QByteArray jsonScalarText(const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2);
}

JsonFieldReader::JsonFieldReader(const QJsonObject &object, const QString &source, const QString &kind)
    : m_object(object)
    , m_location(source)
{
    const QJsonValue name = object.value(QStringLiteral("name"));
    if (name.isString())
        m_location += QStringLiteral(" (%1 %2)").arg(kind, quotedValue(name.toString()));
}

void JsonFieldReader::fail(const QString &message) const
{
    throw StoreError(m_location + QStringLiteral(": ") + message);
}

void JsonFieldReader::failField(const QString &field, const QString &message) const
{
    fail(QStringLiteral("field ") + quoted(field) + QStringLiteral(": ") + message);
}

void JsonFieldReader::checkKeys(const QStringList &known, const QStringList &required) const
{
    QStringList unknown;
    for (auto it = m_object.begin(); it != m_object.end(); ++it) {
        if (!known.contains(it.key()))
            unknown << quotedValue(it.key());
    }
    if (!unknown.isEmpty())
        fail(QStringLiteral("unknown field%1 %2 (fields are: %3)")
                 .arg(unknown.size() == 1 ? QString() : QStringLiteral("s"), unknown.join(QStringLiteral(", ")),
                      known.join(QStringLiteral(", "))));
    for (const QString &key : required) {
        if (!has(key))
            failField(key, QStringLiteral("missing (required)"));
    }
}

bool JsonFieldReader::has(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    return !value.isUndefined() && !value.isNull();
}

std::string JsonFieldReader::string(const QString &key, const std::string &fallback) const
{
    if (!has(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isString())
        failField(key, QStringLiteral("expected a string, got ") + jsonTypeName(value));
    const QString text = value.toString();
    if (text.size() > kMaxJsonStringChars)
        failField(key, jsonStringTooLongMessage(text));
    return text.toStdString();
}

double JsonFieldReader::number(const QString &key, double fallback) const
{
    if (!has(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isDouble())
        failField(key, QStringLiteral("expected a number, got ") + jsonTypeName(value));
    return value.toDouble();
}

int64_t JsonFieldReader::integer64(const QString &key, int64_t fallback) const
{
    if (!has(key))
        return fallback;
    const double approx = number(key);
    const QJsonValue value = m_object.value(key);
    if (approx != std::trunc(approx))
        failField(key, QStringLiteral("expected a whole number, got %1").arg(approx));
    // toInteger() returns the default when the value is not an exact qint64.
    const qint64 exact = value.toInteger(0);
    if (exact != value.toInteger(1))
        failField(key, QStringLiteral("%1 is out of range").arg(approx));
    return exact;
}

int JsonFieldReader::integer(const QString &key, int fallback) const
{
    const int64_t value = integer64(key, fallback);
    if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
        failField(key, QStringLiteral("%1 is out of range").arg(value));
    return static_cast<int>(value);
}

bool JsonFieldReader::boolean(const QString &key, bool fallback) const
{
    if (!has(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isBool())
        failField(key, QStringLiteral("expected true or false, got ") + jsonTypeName(value));
    return value.toBool();
}

void JsonFieldReader::checkProblems(const std::vector<engine::FieldProblem> &problems) const
{
    if (!problems.empty())
        failField(QString::fromStdString(problems.front().field), QString::fromStdString(problems.front().message));
}

} // namespace headroom::store
