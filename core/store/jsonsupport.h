#pragma once

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QString>

// Small JSON helpers for the store's readers: how a value is described in an error message
// and where a parse error sits in the text.
namespace headroom::store {

// "a number", "a string", "null", ... for "expected a number, got a string".
QString jsonTypeName(const QJsonValue &value);
// The text in double quotes: "name".
QString quoted(const QString &text);
// Parses a whole document; throws StoreError("<source>: line L, column C (byte B): <reason>").
QJsonDocument parseJsonDocument(const QByteArray &json, const QString &sourceName);
// One JSON scalar in its compact text form, escaped as QJsonDocument does.
QByteArray jsonScalarText(const QJsonValue &value);

} // namespace headroom::store
