#include "scenarioevaluationview.h"

#include "common/format.h"
#include "scenariocharts.h"
#include "scenariodiagramview.h"
#include "store/common/workspace.h"

#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace headroom::ui {

namespace {

QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

QString money(const engine::Money &m)
{
    return qs(m.display());
}

QString percent(double ratio, int decimals = 1)
{
    return QLocale(QLocale::English).toString(ratio * 100.0, 'f', decimals) + QStringLiteral(" %");
}

// "1 GPU", "48 GPUs".
QString gpuCount(int64_t count)
{
    return formatGpus(count);
}

// A table cell, right-aligned unless `right` is false.
QTableWidgetItem *setCell(QTableWidget *table, int row, int column, const QString &text, bool right = true)
{
    auto *item = new QTableWidgetItem(text);
    if (right)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    table->setItem(row, column, item);
    return item;
}

// The first cell of a pool's row in both views: its name, with its role, GPUs, tier and
// sharing in the tooltip.
void poolCell(QTableWidget *table, int row, const engine::PoolResult &p)
{
    setCell(table, row, 0, qs(p.name), false)
        ->setToolTip(QObject::tr("%1 · %2 × %3 · %4 · %5")
                         .arg(p.role == engine::PoolRole::StaticBase ? QObject::tr("static base")
                                                                     : QObject::tr("elastic top"),
                              formatCount(p.gpus), qs(p.gpuId), tierName(p.tier), partitioningName(p.partitioning)));
}

QFont boldFont(const QTableWidget *table)
{
    QFont bold = table->font();
    bold.setBold(true);
    return bold;
}

} // namespace

ScenarioEvaluationView::ScenarioEvaluationView(store::Workspace &workspace, const ResultWidgets &make,
                                               QWidget *parent)
    : QSplitter(Qt::Vertical, parent)
    , m_workspace(workspace)
{
    m_diagram = new ScenarioDiagramView(this);
    m_capacityTable = make.table("scenarioCapacityTable");
    m_costTable = make.table("scenarioCostTable");
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->setObjectName("scenarioTableTabs");
    m_tableTabs->setDocumentMode(true);
    m_tableTabs->addTab(m_capacityTable, tr("Capacity"));
    m_tableTabs->addTab(m_costTable, tr("Cost"));
    m_tableTabs->setTabToolTip(0, tr("GPUs per pool against the busiest hour's need, and the share of paid GPU-hours used"));
    m_tableTabs->setTabToolTip(1, tr("Exact cost per pool: per day, per 30-day month and over the term; every total "
                                     "is the sum of the figures shown"));
    m_warnings = new QListWidget(this);
    m_warnings->setObjectName("scenarioWarnings");
    m_warnings->setWordWrap(true);
    m_warnings->setToolTip(tr("What to look at, with the reason: missing references, unpriced GPUs, lead times, "
                              "packing advice, OOM at a MIG boundary, unserved demand"));
    m_summary = make.explanation("scenarioSummary");
    auto *below = new QWidget(this);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(m_tableTabs, 3);
    belowLayout->addWidget(m_summary);
    auto *warningsLabel = new QLabel(tr("Warnings"), below);
    QFont bold = warningsLabel->font();
    bold.setBold(true);
    warningsLabel->setFont(bold);
    belowLayout->addWidget(warningsLabel);
    belowLayout->addWidget(m_warnings, 2);
    addWidget(m_diagram);
    addWidget(below);
    setStretchFactor(0, 3);
    setStretchFactor(1, 2);
}

QTableWidget *ScenarioEvaluationView::table() const
{
    return m_tableTabs->currentIndex() == 1 ? m_costTable : m_capacityTable;
}

void ScenarioEvaluationView::showCapacity(const engine::ScenarioResult &r)
{
    QTableWidget *t = m_capacityTable;
    const QStringList headers{tr("Pool"), tr("GPUs"), tr("Peak\nneed"), tr("Planned\nheadroom"), tr("Spare\nat peak"),
                              tr("Utilization")};
    t->setColumnCount(int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->horizontalHeaderItem(1)->setToolTip(tr("Static: provisioned. Elastic: the most in use at once"));
    t->horizontalHeaderItem(2)->setToolTip(tr("GPUs the pool's workloads need at the busiest hour, planned headroom "
                                              "included"));
    t->horizontalHeaderItem(3)->setToolTip(
        tr("GPUs inference sizing planned into the peak need so that latency targets hold through a burst: free "
           "by design at the busiest hour"));
    t->horizontalHeaderItem(4)->setToolTip(tr("GPUs provisioned beyond the peak need: provisioned − used at the "
                                              "busiest hour"));
    t->horizontalHeaderItem(5)->setToolTip(tr("GPU-hours used ÷ GPU-hours paid for"));
    t->setRowCount(int(r.pools.size()) + 1);
    for (int i = 0; i < int(r.pools.size()); ++i) {
        const auto &p = r.pools[size_t(i)];
        poolCell(t, i, p);
        auto *gpus = setCell(t, i, 1, formatCount(p.gpus));
        if (p.autoSized)
            gpus->setToolTip(p.reserveAnalysed ? tr("Sized for you: the reserve policy chose %1 (critical fractile %2)")
                                                     .arg(*p.reserveAnalysed)
                                                     .arg(p.criticalFractile, 0, 'f', 3)
                                               : tr("Sized for you"));
        setCell(t, i, 2, formatCount(p.peakNeedGpus));
        const QString headroomTip = tr("At the busiest hour %1 free: %2 planned by inference sizing (inside the peak "
                                       "need of %3) and %4 spare (%5 provisioned − %6 used)")
                                        .arg(gpuCount(p.headroomAtPeak), gpuCount(p.plannedHeadroomGpus),
                                             formatCount(p.peakNeedGpus), gpuCount(p.spareAtPeak),
                                             formatCount(p.gpus), formatCount(p.gpus - p.spareAtPeak));
        setCell(t, i, 3, formatCount(p.plannedHeadroomGpus))->setToolTip(headroomTip);
        setCell(t, i, 4, formatCount(p.spareAtPeak))->setToolTip(headroomTip);
        setCell(t, i, 5, percent(p.utilization));
    }
    const int total = int(r.pools.size());
    const QFont bold = boldFont(t);
    setCell(t, total, 0, tr("Fleet"), false)->setFont(bold);
    setCell(t, total, 1, tr("%1 + %2").arg(formatCount(r.staticGpus), formatCount(r.elasticPeakGpus)))->setFont(bold);
    t->item(total, 1)->setToolTip(tr("Static GPUs + the elastic GPUs in use at the peak"));
    setCell(t, total, 5, percent(r.utilization))->setFont(bold);
    t->resizeColumnsToContents();
}

void ScenarioEvaluationView::showCost(const engine::ScenarioResult &r, const engine::ScenarioMoneyTable &table)
{
    QTableWidget *t = m_costTable;
    const QStringList headers{tr("Pool"), tr("Rate\nper GPU-h"), tr("Cost\nper day"), tr("Cost per\n30-day month"),
                              tr("Cost\nover term")};
    t->setColumnCount(int(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->horizontalHeaderItem(4)->setToolTip(
        tr("The term's real hours: %1 h from %2 to %3").arg(formatCount(r.termHours), qs(r.startDate), qs(r.endDate)));
    t->setRowCount(int(r.pools.size()) + 1);
    // Printed money: each figure in cents, each total the sum of the figures shown.
    for (int i = 0; i < int(r.pools.size()); ++i) {
        const auto &p = r.pools[size_t(i)];
        poolCell(t, i, p);
        if (!p.priced) {
            for (int c = 1; c <= 4; ++c)
                setCell(t, i, c, tr("not priced"))->setForeground(QColor(0xc0, 0x39, 0x2b));
            continue;
        }
        setCell(t, i, 1, qs(p.ratePerGpuHour.displayRate()) + QStringLiteral(" ") + qs(p.ratePerGpuHour.currency))
            ->setToolTip(tr("Rate card %1: %2 per GPU-hour").arg(qs(p.rateCardKey), qs(p.ratePerGpuHour.amount.toString())));
        const size_t shown = std::size_t(std::find(table.pools.begin(), table.pools.end(), p.name) - table.pools.begin());
        setCell(t, i, 2, money(table.perDay.parts.at(shown)));
        setCell(t, i, 3, money(table.perMonth.parts.at(shown)));
        auto *termCell = setCell(t, i, 4, money(table.overTerm.parts.at(shown)));
        if (p.commitment && !p.commitment->coversTerm && p.gpus > 0) {
            termCell->setText(termCell->text() + QStringLiteral(" ⚠"));
            termCell->setToolTip(tr("%1 of the %2 commitment owed in full (%3 to %4); %5 upfront.")
                                     .arg(money(p.commitment->inHorizon), money(p.commitment->total),
                                          qs(p.commitment->startDate), qs(p.commitment->endDate),
                                          money(p.commitment->upfront)));
        }
    }
    const int total = int(r.pools.size());
    const QFont bold = boldFont(t);
    setCell(t, total, 0, tr("Fleet"), false)->setFont(bold);
    if (!table.pools.empty()) {
        // Totals are the sums of the amounts shown, so the column adds up to the cent.
        setCell(t, total, 2, money(table.perDay.total))->setFont(bold);
        setCell(t, total, 3, money(table.perMonth.total))->setFont(bold);
        setCell(t, total, 4, money(table.overTerm.total))->setFont(bold);
    }
    t->resizeColumnsToContents();
}

void ScenarioEvaluationView::showResult(const std::optional<engine::ScenarioResult> &result, const QString &error,
                                        const QString &name)
{
    m_diagram->setResult(result);
    m_warnings->clear();
    for (QTableWidget *t : {m_capacityTable, m_costTable}) {
        t->clearContents();
        t->setRowCount(0);
    }
    if (!result) {
        m_summary->setText(error.isEmpty() ? QString()
                                           : QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                                 .arg(error.toHtmlEscaped()));
        return;
    }
    const engine::ScenarioResult &r = *result;
    const engine::ScenarioMoneyTable table = engine::scenarioMoneyTable(r);
    showCapacity(r);
    showCost(r, table);

    const auto scenario = m_workspace.scenario(name);
    const int horizon = scenario ? scenario->horizonMonths : 0;
    QString summary = tr("<b>%1</b>: %2 static GPUs and up to %3 elastic at the peak, %4 of the paid GPU-hours running replicas, %12 kept busy by the traffic. "
                         "Cost %5 per day, %6 per 30-day month, %7 over the %8-month term (%9 to %10, %11 h).")
                          .arg(qs(r.name).toHtmlEscaped(), formatCount(r.staticGpus), formatCount(r.elasticPeakGpus),
                               percent(r.utilization), money(table.perDay.total), money(table.perMonth.total),
                               money(table.overTerm.total))
                          .arg(horizon)
                          .arg(qs(r.startDate), qs(r.endDate), formatCount(r.termHours))
                          .arg(percent(r.busyUtilization));
    for (const auto &p : r.pools)
        if (p.priced && p.commitment && !p.commitment->coversTerm && p.gpus > 0)
            summary += tr(" <b>%1</b> is a %2-year commitment owed in full: %3 from %4 to %5 (%6 upfront); the term "
                          "above consumes %7 of it (%8).")
                           .arg(qs(p.name).toHtmlEscaped())
                           .arg(p.commitment->termMonths / 12)
                           .arg(money(p.commitment->total), qs(p.commitment->startDate), qs(p.commitment->endDate),
                                money(p.commitment->upfront), money(p.commitment->inHorizon),
                                percent(p.commitment->shareConsumed));
    for (const auto &p : r.pools)
        if (p.headroomAtPeak > 0)
            summary += tr(" At its busiest hour <b>%1</b> has %2 of headroom: %3 planned by inference sizing and %4 "
                          "spare.")
                           .arg(qs(p.name).toHtmlEscaped(), gpuCount(p.headroomAtPeak),
                                formatCount(p.plannedHeadroomGpus), formatCount(p.spareAtPeak));
    if (const double idle = 1.0 - r.utilization; r.staticGpus > 0 && idle > 0.2)
        summary += tr(" %1 of the GPU-hours paid for sit idle: packing or an elastic top would recover part of it.")
                       .arg(percent(idle, 0));
    const engine::ServingAssumptions serving = m_workspace.servingAssumptions();
    summary += tr("<br>Workloads sized with the workspace's serving assumptions (Edit ▸ Serving Assumptions): %1.")
                   .arg(serving.residency == engine::KvResidency::Session
                            ? tr("KV residency <b>session</b> — every open session keeps its KV cache resident")
                            : tr("KV residency <b>request</b> — KV held while a request is in flight"));
    m_summary->setText(summary);

    for (const auto &w : r.warnings) {
        auto *item = new QListWidgetItem(w.pool.empty() ? qs(w.message)
                                                        : tr("%1: %2").arg(qs(w.pool), qs(w.message)),
                                         m_warnings);
        item->setToolTip(qs(w.code));
        item->setForeground(QColor(0xb0, 0x60, 0x00));
    }
    if (r.warnings.empty())
        new QListWidgetItem(tr("No warnings."), m_warnings);
}

} // namespace headroom::ui
