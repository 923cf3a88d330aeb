#include "reporttables.h"

#include "store/common/sqlsupport.h"
#include "store/common/storeerror.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include "store/common/jsonsupport.h"
#include <QSqlDatabase>
#include <QSqlQuery>

namespace headroom::store {

namespace {

const QString kTitleKey = QStringLiteral("report_title");
const QString kAuthorKey = QStringLiteral("report_author");
const QString kDateKey = QStringLiteral("report_date");

QString tableProblem(const QString &content)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(content.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        return QStringLiteral("field \"content\": not valid JSON at character %1: %2")
            .arg(error.offset + 1)
            .arg(jsonProblem(error));
    if (!document.isObject())
        return QStringLiteral("field \"content\": a table must be a JSON object with \"columns\" "
                              "and \"rows\"");
    const QJsonObject table = document.object();
    if (!table.value(QStringLiteral("columns")).isArray()
        || table.value(QStringLiteral("columns")).toArray().isEmpty())
        return QStringLiteral("field \"content\": \"columns\" must be a non-empty array");
    if (!table.value(QStringLiteral("rows")).isArray())
        return QStringLiteral("field \"content\": \"rows\" must be an array");
    const qsizetype width = table.value(QStringLiteral("columns")).toArray().size();
    const QJsonArray rows = table.value(QStringLiteral("rows")).toArray();
    for (qsizetype row = 0; row < rows.size(); ++row) {
        if (!rows.at(row).isArray() || rows.at(row).toArray().size() != width)
            return QStringLiteral("field \"content\": row %1 must be an array of %2 cells")
                .arg(row + 1)
                .arg(width);
    }
    return {};
}

// Qt binds a null QString as SQL NULL; the report's text columns are NOT NULL.
QString text(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

} // namespace

QString reportKindName(ReportItem::Kind kind)
{
    switch (kind) {
    case ReportItem::Kind::Figure:
        return QStringLiteral("figure");
    case ReportItem::Kind::Table:
        return QStringLiteral("table");
    case ReportItem::Kind::Text:
        return QStringLiteral("text");
    }
    return {};
}

bool parseReportKind(const QString &name, ReportItem::Kind *kind)
{
    for (const auto candidate : {ReportItem::Kind::Figure, ReportItem::Kind::Table, ReportItem::Kind::Text}) {
        if (reportKindName(candidate) == name) {
            *kind = candidate;
            return true;
        }
    }
    return false;
}

QString reportItemProblem(const ReportItem &item)
{
    if (item.title.trimmed().isEmpty())
        return QStringLiteral("field \"title\": must not be empty");
    if (!item.source.isEmpty()) {
        QJsonParseError error;
        const QJsonDocument source = QJsonDocument::fromJson(item.source.toUtf8(), &error);
        if (error.error != QJsonParseError::NoError)
            return QStringLiteral("field \"source\": not valid JSON at character %1: %2")
                .arg(error.offset + 1)
                .arg(jsonProblem(error));
        if (!source.isObject() || !source.object().value(QStringLiteral("kind")).isString())
            return QStringLiteral("field \"source\": must be a JSON object naming its \"kind\"");
    }
    if (!item.takenAt.isEmpty() && !QDateTime::fromString(item.takenAt, Qt::ISODate).isValid())
        return QStringLiteral("field \"taken_at\": \"%1\" is not an ISO 8601 date and time").arg(item.takenAt);
    switch (item.kind) {
    case ReportItem::Kind::Figure:
        if (!item.content.contains(QLatin1String("<svg")))
            return QStringLiteral("field \"content\": a figure must be SVG text");
        return {};
    case ReportItem::Kind::Table:
        return tableProblem(item.content);
    case ReportItem::Kind::Text:
        if (item.content.trimmed().isEmpty())
            return QStringLiteral("field \"content\": must not be empty");
        return {};
    }
    return QStringLiteral("field \"kind\": unknown");
}

ReportTables::ReportTables(const QString &connectionName, const QString &path)
    : m_connectionName(connectionName), m_path(path)
{
}

std::vector<ReportItem> ReportTables::items() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT position, kind, title, caption, content, source, pinned, taken_at, "
                                 "inputs_fingerprint FROM report_item ORDER BY position"));
    execPrepared(query, m_path, QStringLiteral("cannot read the report"));
    std::vector<ReportItem> items;
    while (query.next()) {
        ReportItem item;
        const QString kind = query.value(1).toString();
        if (!parseReportKind(kind, &item.kind))
            throw StoreError(QStringLiteral("%1: report item at position %2: column \"kind\" holds "
                                            "\"%3\", not figure, table or text")
                                 .arg(m_path, query.value(0).toString(), kind));
        item.title = query.value(2).toString();
        item.caption = query.value(3).toString();
        item.content = query.value(4).toString();
        item.source = query.value(5).toString();
        item.pinned = query.value(6).toLongLong() != 0;
        item.takenAt = query.value(7).toString();
        item.inputsFingerprint = query.value(8).toString();
        items.push_back(std::move(item));
    }
    return items;
}

void ReportTables::replaceItems(const std::vector<ReportItem> &items) const
{
    const QSqlDatabase db = QSqlDatabase::database(m_connectionName, false);
    execStatement(db, QStringLiteral("DELETE FROM report_item"), m_path,
                  QStringLiteral("cannot rewrite the report"));
    QSqlQuery query(db);
    query.prepare(QStringLiteral("INSERT INTO report_item (position, kind, title, caption, content, source, pinned, "
                                 "taken_at, inputs_fingerprint) VALUES (:position, :kind, :title, :caption, "
                                 ":content, :source, :pinned, :taken_at, :fingerprint)"));
    for (size_t position = 0; position < items.size(); ++position) {
        const ReportItem &item = items[position];
        query.bindValue(QStringLiteral(":position"), qlonglong(position));
        query.bindValue(QStringLiteral(":kind"), reportKindName(item.kind));
        query.bindValue(QStringLiteral(":title"), text(item.title));
        query.bindValue(QStringLiteral(":caption"), text(item.caption));
        query.bindValue(QStringLiteral(":content"), text(item.content));
        query.bindValue(QStringLiteral(":source"), text(item.source));
        query.bindValue(QStringLiteral(":pinned"), item.pinned ? 1 : 0);
        query.bindValue(QStringLiteral(":taken_at"), text(item.takenAt));
        query.bindValue(QStringLiteral(":fingerprint"), text(item.inputsFingerprint));
        execPrepared(query, m_path, QStringLiteral("cannot store report item \"%1\"").arg(item.title));
    }
}

ReportSettings ReportTables::settings() const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(QStringLiteral("SELECT key, value FROM workspace_info WHERE key IN "
                                 "(:title, :author, :date)"));
    query.bindValue(QStringLiteral(":title"), kTitleKey);
    query.bindValue(QStringLiteral(":author"), kAuthorKey);
    query.bindValue(QStringLiteral(":date"), kDateKey);
    execPrepared(query, m_path, QStringLiteral("cannot read the report settings"));
    ReportSettings settings;
    while (query.next()) {
        const QString key = query.value(0).toString();
        const QString value = query.value(1).toString();
        if (key == kTitleKey)
            settings.title = value;
        else if (key == kAuthorKey)
            settings.author = value;
        else if (key == kDateKey)
            settings.date = value;
    }
    return settings;
}

void ReportTables::putSettings(const ReportSettings &settings) const
{
    QSqlQuery query(QSqlDatabase::database(m_connectionName, false));
    query.prepare(upsertSql(QStringLiteral("workspace_info"), {QStringLiteral("key"), QStringLiteral("value")},
                            {QStringLiteral("key")}));
    const std::pair<QString, QString> values[] = {
        {kTitleKey, settings.title}, {kAuthorKey, settings.author}, {kDateKey, settings.date}};
    for (const auto &[key, value] : values) {
        query.bindValue(QStringLiteral(":key"), key);
        query.bindValue(QStringLiteral(":value"), text(value));
        execPrepared(query, m_path, QStringLiteral("cannot store the report %1").arg(key.mid(7)));
    }
}

} // namespace headroom::store
