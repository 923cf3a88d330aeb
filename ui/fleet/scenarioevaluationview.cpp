#include "scenarioevaluationview.h"

#include "common/format.h"
#include "scenariocharts.h"
#include "scenariodiagramview.h"
#include "store/workspace.h"

#include <QLabel>
#include <QListWidget>
#include <QLocale>
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

} // namespace

ScenarioEvaluationView::ScenarioEvaluationView(store::Workspace &workspace, const ResultWidgets &make,
                                               QWidget *parent)
    : QSplitter(Qt::Vertical, parent)
    , m_workspace(workspace)
{
    m_diagram = new ScenarioDiagramView(this);
    m_resultTable = make.table("scenarioResultTable");
    m_warnings = new QListWidget(this);
    m_warnings->setObjectName("scenarioWarnings");
    m_warnings->setWordWrap(true);
    m_warnings->setToolTip(tr("What to look at, with the reason: missing references, unpriced GPUs, lead times, "
                              "packing advice, OOM at a MIG boundary, unserved demand"));
    m_summary = make.explanation("scenarioSummary");
    auto *below = new QWidget(this);
    auto *belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(m_resultTable, 3);
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

void ScenarioEvaluationView::showResult(const std::optional<engine::ScenarioResult> &result, const QString &error,
                                        const QString &name)
{
    m_diagram->setResult(result);
    m_warnings->clear();
    m_resultTable->clearContents();
    m_resultTable->setRowCount(0);
    if (!result) {
        m_summary->setText(error.isEmpty() ? QString()
                                           : QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                                 .arg(error.toHtmlEscaped()));
        return;
    }
    const engine::ScenarioResult &r = *result;
    const QStringList headers{tr("Pool"),           tr("GPU"),           tr("Tier"),         tr("Sharing"),
                              tr("GPUs"),           tr("Peak need"),     tr("Headroom at peak"), tr("Utilization"),
                              tr("Rate per GPU-h"), tr("Cost per day"),  tr("Cost per 30-day month"), tr("Cost over term")};
    m_resultTable->setColumnCount(int(headers.size()));
    m_resultTable->setHorizontalHeaderLabels(headers);
    m_resultTable->horizontalHeaderItem(4)->setToolTip(tr("Static: provisioned. Elastic: the most in use at once"));
    m_resultTable->horizontalHeaderItem(6)->setToolTip(
        tr("GPUs free at the busiest hour, in two parts: the headroom inference sizing planned into the need "
           "(free by design, so latency targets hold through a burst; counted in the peak need) and the GPUs "
           "spare beyond it (provisioned − used at the peak)"));
    m_resultTable->horizontalHeaderItem(7)->setToolTip(tr("GPU-hours used ÷ GPU-hours paid for"));
    m_resultTable->horizontalHeaderItem(11)->setToolTip(
        tr("The term's real hours: %1 h from %2 to %3").arg(formatCount(r.termHours), qs(r.startDate), qs(r.endDate)));
    m_resultTable->setRowCount(int(r.pools.size()) + 1);
    auto cell = [this](int row, int column, const QString &text, bool right = true) {
        auto *item = new QTableWidgetItem(text);
        if (right)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_resultTable->setItem(row, column, item);
        return item;
    };
    // Printed money: each figure in cents, each total the sum of the figures shown.
    const engine::ScenarioMoneyTable table = engine::scenarioMoneyTable(r);
    for (int i = 0; i < int(r.pools.size()); ++i) {
        const auto &p = r.pools[size_t(i)];
        cell(i, 0, qs(p.name), false)->setToolTip(p.role == engine::PoolRole::StaticBase ? tr("static base")
                                                                                           : tr("elastic top"));
        cell(i, 1, qs(p.gpuId), false);
        cell(i, 2, tierName(p.tier), false);
        cell(i, 3, partitioningName(p.partitioning), false);
        auto *gpus = cell(i, 4, formatCount(p.gpus));
        if (p.autoSized)
            gpus->setToolTip(p.reserveAnalysed ? tr("Sized for you: the reserve policy chose %1 (critical fractile %2)")
                                                     .arg(*p.reserveAnalysed)
                                                     .arg(p.criticalFractile, 0, 'f', 3)
                                               : tr("Sized for you"));
        cell(i, 5, formatCount(p.peakNeedGpus));
        cell(i, 6, tr("%1 (%2 planned, %3 spare)")
                       .arg(formatCount(p.headroomAtPeak), formatCount(p.plannedHeadroomGpus), formatCount(p.spareAtPeak)))
            ->setToolTip(tr("At the busiest hour: %1 planned by inference sizing (inside the peak need of %2) and %3 "
                            "spare (%4 provisioned − %5 used)")
                             .arg(gpuCount(p.plannedHeadroomGpus), formatCount(p.peakNeedGpus), gpuCount(p.spareAtPeak),
                                  formatCount(p.gpus), formatCount(p.gpus - p.spareAtPeak)));
        cell(i, 7, percent(p.utilization));
        if (p.priced) {
            cell(i, 8, qs(p.ratePerGpuHour.displayRate()) + QStringLiteral(" ") + qs(p.ratePerGpuHour.currency))
                ->setToolTip(tr("Rate card %1: %2 per GPU-hour").arg(qs(p.rateCardKey), qs(p.ratePerGpuHour.amount.toString())));
            const size_t shown = std::size_t(std::find(table.pools.begin(), table.pools.end(), p.name) - table.pools.begin());
            cell(i, 9, money(table.perDay.parts.at(shown)));
            cell(i, 10, money(table.perMonth.parts.at(shown)));
            auto *termCell = cell(i, 11, money(table.overTerm.parts.at(shown)));
            if (p.commitment && !p.commitment->coversTerm && p.gpus > 0) {
                termCell->setText(termCell->text() + QStringLiteral(" ⚠"));
                termCell->setToolTip(tr("%1 of the %2 commitment owed in full (%3 to %4); %5 upfront.")
                                         .arg(money(p.commitment->inHorizon), money(p.commitment->total),
                                              qs(p.commitment->startDate), qs(p.commitment->endDate),
                                              money(p.commitment->upfront)));
            }
        } else {
            for (int c = 8; c <= 11; ++c)
                cell(i, c, tr("not priced"))->setForeground(QColor(0xc0, 0x39, 0x2b));
        }
    }
    const int total = int(r.pools.size());
    QFont bold = m_resultTable->font();
    bold.setBold(true);
    auto totalCell = [&](int column, const QString &text, bool right = true) { cell(total, column, text, right)->setFont(bold); };
    totalCell(0, tr("Fleet"), false);
    totalCell(4, tr("%1 + %2").arg(formatCount(r.staticGpus), formatCount(r.elasticPeakGpus)));
    totalCell(7, percent(r.utilization));
    if (!table.pools.empty()) {
        // Totals are the sums of the amounts shown, so the column adds up to the cent.
        totalCell(9, money(table.perDay.total));
        totalCell(10, money(table.perMonth.total));
        totalCell(11, money(table.overTerm.total));
    }
    m_resultTable->resizeColumnsToContents();

    const auto scenario = m_workspace.scenario(name);
    const int horizon = scenario ? scenario->horizonMonths : 0;
    QString summary = tr("<b>%1</b>: %2 static GPUs and up to %3 elastic at the peak, %4 of the paid GPU-hours used. "
                         "Cost %5 per day, %6 per 30-day month, %7 over the %8-month term (%9 to %10, %11 h).")
                          .arg(qs(r.name).toHtmlEscaped(), formatCount(r.staticGpus), formatCount(r.elasticPeakGpus),
                               percent(r.utilization), money(table.perDay.total), money(table.perMonth.total),
                               money(table.overTerm.total))
                          .arg(horizon)
                          .arg(qs(r.startDate), qs(r.endDate), formatCount(r.termHours));
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
