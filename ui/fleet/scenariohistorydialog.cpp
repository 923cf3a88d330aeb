#include "scenariohistorydialog.h"
#include "common/columnfit.h"

#include "common/dialogs.h"
#include "store/common/workspace.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace headroom::ui {

ScenarioHistoryDialog::ScenarioHistoryDialog(const store::Workspace &workspace, const QString &name, QWidget *parent)
    : QDialog(parent), m_name(name)
{
    setObjectName("scenarioHistoryDialog");
    setWindowTitle(tr("History of %1").arg(name));
    const auto versions = workspace.scenarioHistory(name);
    m_current = versions.empty() ? 0 : versions.front().version;

    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Every saved version of “%1”, newest first. Restoring saves the chosen version "
                                "again as a new version; Edit ▸ Undo takes a restore back.")
                                 .arg(name),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    m_table = new QTableWidget(int(versions.size()), 4, this);
    m_table->setObjectName("historyTable");
    m_table->setHorizontalHeaderLabels({tr("Version"), tr("Saved (UTC)"), tr("By"), tr("Description")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setStretchLastSection(true);
    ColumnFit::fitColumns(m_table); // long descriptions wrap instead of being cut
    for (int row = 0; row < int(versions.size()); ++row) {
        const store::ScenarioVersion &v = versions[size_t(row)];
        auto *version = new QTableWidgetItem(row == 0 ? tr("%1 (current)").arg(v.version) : QString::number(v.version));
        version->setData(Qt::UserRole, qlonglong(v.version));
        version->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, 0, version);
        const QDateTime when = QDateTime::fromString(v.changedAt, Qt::ISODateWithMs);
        m_table->setItem(row, 1, new QTableWidgetItem(when.isValid() ? when.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                                                                     : v.changedAt));
        m_table->setItem(row, 2, new QTableWidgetItem(v.changedBy.isEmpty() ? tr("(not recorded)") : v.changedBy));
        auto *description = new QTableWidgetItem(v.description);
        description->setToolTip(v.description);
        m_table->setItem(row, 3, description);
    }
    layout->addWidget(m_table, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_restore = buttons->addButton(tr("&Restore…"), QDialogButtonBox::ActionRole);
    m_restore->setObjectName("restoreVersion");
    m_restore->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_restore, &QPushButton::clicked, this, &ScenarioHistoryDialog::restoreSelected);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] {
        const int64_t version = selectedVersion();
        m_restore->setEnabled(version > 0 && version != m_current);
    });
    layout->addWidget(buttons);
    resize(640, 380);
}

int64_t ScenarioHistoryDialog::selectedVersion() const
{
    const int row = m_table->currentRow();
    if (row < 0 || !m_table->item(row, 0))
        return 0;
    return m_table->item(row, 0)->data(Qt::UserRole).toLongLong();
}

bool ScenarioHistoryDialog::restore(int64_t version)
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->item(row, 0)->data(Qt::UserRole).toLongLong() == version) {
            m_table->selectRow(row);
            restoreSelected();
            return m_chosen == version;
        }
    }
    return false;
}

void ScenarioHistoryDialog::restoreSelected()
{
    const int64_t version = selectedVersion();
    if (version <= 0 || version == m_current)
        return;
    if (!Dialogs::question(this, tr("Restore version"),
                           tr("Restore version %1 of “%2”? It is saved as version %3; the versions in between "
                              "are kept.")
                               .arg(version)
                               .arg(m_name)
                               .arg(m_current + 1)))
        return;
    m_chosen = version;
    accept();
}

} // namespace headroom::ui
