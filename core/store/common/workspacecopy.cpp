#include "workspacecopy.h"

#include "migrations.h"
#include "sqlsupport.h"
#include "storeerror.h"

#include <QCryptographicHash>
#include <QSet>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStringDecoder>

namespace headroom::store {

const QStringList &workspaceTables()
{
    static const QStringList tables = {
        QStringLiteral("workspace_info"), QStringLiteral("gpu"),          QStringLiteral("model"),
        QStringLiteral("rate_card"),      QStringLiteral("demand_series"), QStringLiteral("demand_point"),
        QStringLiteral("workload"),       QStringLiteral("training_job"), QStringLiteral("scenario"),
        QStringLiteral("report_item"),    QStringLiteral("scenario_history"),
        QStringLiteral("actuals_import"), QStringLiteral("actuals_commitment"), QStringLiteral("actuals_commitment_hour"),
        QStringLiteral("actuals_commitment_scope"), QStringLiteral("actuals_on_demand"), QStringLiteral("actuals_day"),
        QStringLiteral("actuals_commitment_rate"),
        QStringLiteral("serving_metrics_import"), QStringLiteral("serving_metrics_hour"), QStringLiteral("serving_optimization"),
    };
    return tables;
}

void copyWorkspaceTables(const QSqlDatabase &source, const QString &sourcePath,
                         const QSqlDatabase &target, const QString &targetPath,
                         const std::function<void()> &prepareTarget)
{
    SqlTransaction transaction(target, targetPath);
    if (prepareTarget)
        prepareTarget();
    const QStringList &tables = workspaceTables();
    for (auto table = tables.crbegin(); table != tables.crend(); ++table)
        execStatement(target, QStringLiteral("DELETE FROM %1").arg(*table), targetPath,
                      QStringLiteral("cannot empty table %1").arg(*table));
    for (const QString &table : tables) {
        QSqlQuery rows(source);
        rows.setForwardOnly(true);
        if (!rows.exec(QStringLiteral("SELECT * FROM %1").arg(table)))
            raiseSqlError(sourcePath, QStringLiteral("cannot read table %1").arg(table), rows.lastError());
        const QSqlRecord record = rows.record();
        QStringList columns;
        QStringList placeholders;
        for (int i = 0; i < record.count(); ++i) {
            columns << record.fieldName(i);
            placeholders << QStringLiteral("?");
        }
        QSqlQuery insert(target);
        if (!insert.prepare(QStringLiteral("INSERT INTO %1 (%2) VALUES (%3)")
                                .arg(table, columns.join(QStringLiteral(", ")),
                                     placeholders.join(QStringLiteral(", ")))))
            raiseSqlError(targetPath, QStringLiteral("cannot write table %1").arg(table), insert.lastError());
        while (rows.next()) {
            for (int i = 0; i < record.count(); ++i)
                insert.bindValue(i, rows.value(i));
            execPrepared(insert, targetPath, QStringLiteral("cannot write table %1").arg(table));
        }
        if (rows.lastError().isValid())
            raiseSqlError(sourcePath, QStringLiteral("cannot read table %1").arg(table), rows.lastError());
    }
    transaction.commit();
}

QString workspaceInputsFingerprint(const QSqlDatabase &db, const QString &path)
{
    static const QSet<QString> bookkeeping = {
        QStringLiteral("version"),    QStringLiteral("created_at"), QStringLiteral("updated_at"),
        QStringLiteral("updated_by"), QStringLiteral("changed_at"), QStringLiteral("changed_by"),
    };
    QCryptographicHash hash(QCryptographicHash::Sha256);
    const auto add = [&hash](const QString &text) {
        const QByteArray bytes = text.toUtf8();
        hash.addData(QByteArray::number(bytes.size()) + ':' + bytes);
    };
    for (const QString &table : workspaceTables()) {
        if (table == QLatin1String("report_item") || table == QLatin1String("scenario_history"))
            continue;
        QSqlQuery probe(db);
        if (!probe.exec(QStringLiteral("SELECT * FROM %1 WHERE 1 = 0").arg(table)))
            raiseSqlError(path, QStringLiteral("cannot read table %1").arg(table), probe.lastError());
        const QSqlRecord record = probe.record();
        QStringList columns;
        for (int i = 0; i < record.count(); ++i) {
            if (!bookkeeping.contains(record.fieldName(i)))
                columns << record.fieldName(i);
        }
        QString sql = QStringLiteral("SELECT %1 FROM %2").arg(columns.join(QStringLiteral(", ")), table);
        if (table == QLatin1String("workspace_info"))
            sql += QStringLiteral(" WHERE key NOT LIKE 'report\\_%' ESCAPE '\\'");
        QStringList order;
        for (qsizetype i = 1; i <= columns.size(); ++i)
            order << QString::number(i);
        sql += QStringLiteral(" ORDER BY ") + order.join(QStringLiteral(", "));
        QSqlQuery rows(db);
        rows.setForwardOnly(true);
        if (!rows.exec(sql))
            raiseSqlError(path, QStringLiteral("cannot read table %1").arg(table), rows.lastError());
        add(table);
        while (rows.next()) {
            for (qsizetype i = 0; i < columns.size(); ++i)
                add(rows.value(int(i)).isNull() ? QStringLiteral("\x01null") : rows.value(int(i)).toString());
        }
        if (rows.lastError().isValid())
            raiseSqlError(path, QStringLiteral("cannot read table %1").arg(table), rows.lastError());
    }
    return QString::fromLatin1(hash.result().toHex());
}

void checkWorkspaceText(const QSqlDatabase &db, const QString &path)
{
    if (isServer(db))
        return;
    for (const QString &table : workspaceTables()) {
        QSqlQuery columns(db);
        if (!columns.exec(QStringLiteral("SELECT name FROM pragma_table_info('%1')").arg(table)))
            raiseSqlError(path, QStringLiteral("cannot read the columns of table %1").arg(table), columns.lastError());
        while (columns.next()) {
            const QString column = columns.value(0).toString();
            // SQLite stores whatever bytes it is given as text; Qt would turn bad ones into
            // U+FFFD and the copy would silently differ from the file.
            QSqlQuery values(db);
            values.setForwardOnly(true);
            if (!values.exec(QStringLiteral("SELECT rowid, CAST(\"%1\" AS BLOB) FROM %2 WHERE typeof(\"%1\") = 'text'")
                                 .arg(column, table)))
                raiseSqlError(path, QStringLiteral("cannot read table %1").arg(table), values.lastError());
            while (values.next()) {
                const QByteArray bytes = values.value(1).toByteArray();
                QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
                const QString decoded = decoder.decode(bytes);  // decoding happens here
                if (!decoder.hasError())
                    continue;
                throw StoreError(QStringLiteral("%1: table %2, row %3, column %4: not UTF-8 text; the file is "
                                                "damaged or was written by another program")
                                     .arg(path, table)
                                     .arg(values.value(0).toLongLong())
                                     .arg(column));
            }
        }
    }
}

} // namespace headroom::store
