#include "workspacecopy.h"

#include "sqlsupport.h"
#include "storeerror.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

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
                         const QSqlDatabase &target, const QString &targetPath)
{
    SqlTransaction transaction(target, targetPath);
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

} // namespace headroom::store
