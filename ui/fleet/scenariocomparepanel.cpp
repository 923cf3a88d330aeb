#include "scenariocomparepanel.h"

#include "common/columnviews.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/format.h"
#include "engine/common/errors.h"
#include "scenariocharts.h"
#include "store/fleet/scenarioinputs.h"
#include "store/common/workspace.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QSplitter>
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

// A metric value of the comparison as text, in its unit.
QString metricText(const engine::ComparisonMetric &m, const engine::Decimal &v, bool delta)
{
    const bool negative = v.isNegative();
    const engine::Decimal magnitude = negative ? -v : v;
    QString sign = delta ? (negative ? QStringLiteral("−") : (v.isZero() ? QString() : QStringLiteral("+"))) : QString();
    if (!delta && negative)
        sign = QStringLiteral("−");
    if (m.unit == "money")
        return sign + qs(engine::Money{magnitude, m.currency.empty() ? std::string("USD") : m.currency}.display());
    if (m.unit == "ratio")
        return sign + QLocale(QLocale::English).toString(magnitude.toDouble() * 100.0, 'f', 1) +
               (delta ? QStringLiteral(" pts") : QStringLiteral(" %"));
    return sign + formatCount(magnitude.rounded(0).toIntegerTruncated());
}

} // namespace

ScenarioComparePanel::ScenarioComparePanel(store::Workspace &workspace,
                                           const std::function<QTableWidget *(const char *)> &newTable, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
{
    auto *layout = new QVBoxLayout(this);
    auto *top = new QHBoxLayout;
    m_compareList = new QListWidget(this);
    m_compareList->setObjectName("scenarioCompareList");
    m_compareList->setToolTip(tr("Tick 2 to 4 scenarios to compare"));
    m_compareList->setMaximumHeight(120);
    connect(m_compareList, &QListWidget::itemChanged, this, [this] {
        // The baseline choices are the ticked scenarios.
        const QString baseline = m_baseline->currentText();
        m_baseline->blockSignals(true);
        m_baseline->clear();
        for (int i = 0; i < m_compareList->count(); ++i)
            if (m_compareList->item(i)->checkState() == Qt::Checked)
                m_baseline->addItem(m_compareList->item(i)->text());
        m_baseline->setCurrentIndex(std::max(0, m_baseline->findText(baseline)));
        m_baseline->blockSignals(false);
        refresh();
    });
    m_baseline = new QComboBox(this);
    m_baseline->setObjectName("scenarioBaseline");
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_baseline->setMinimumContentsLength(14);
    m_baseline->setToolTip(tr("The scenario the others are compared against: deltas are other − baseline"));
    connect(m_baseline, &QComboBox::currentIndexChanged, this, &ScenarioComparePanel::refresh);
    auto *side = new QFormLayout;
    side->addRow(tr("Baseline:"), m_baseline);
    top->addWidget(m_compareList, 2);
    top->addLayout(side, 1);
    layout->addLayout(top);
    m_compareNote = new QLabel(this);
    m_compareNote->setObjectName("scenarioCompareNote");
    m_compareNote->setWordWrap(true);
    layout->addWidget(m_compareNote);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_compareTable = newTable("scenarioCompareTable");
    m_compareCharts = new QTabWidget(this);
    m_costChart = new ChartPanel(this);
    m_costChart->setObjectName("scenarioCostByTierChart");
    m_gpuChart = new ChartPanel(this);
    m_gpuChart->setObjectName("scenarioGpusByPoolChart");
    m_utilChart = new ChartPanel(this);
    m_utilChart->setObjectName("scenarioUtilizationChart");
    m_compareCharts->addTab(m_costChart, tr("Monthly cost by tier"));
    m_compareCharts->addTab(m_gpuChart, tr("GPUs by pool"));
    m_compareCharts->addTab(m_utilChart, tr("Utilization"));
    // Columns: metric, baseline, then each other scenario's value and its delta.
    auto *views = new ColumnViews(
        m_compareTable,
        {{tr("Values"), tr("Each scenario's figures"), [](int c) { return c <= 1 || c % 2 == 0; }},
         {tr("Δ vs baseline"), tr("Each scenario's figures minus the baseline's"),
          [](int c) { return c == 0 || (c >= 3 && c % 2 == 1); }}},
        this);
    split->addWidget(m_compareCharts);
    split->addWidget(ColumnViews::above(views, m_compareTable, this));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
}

void ScenarioComparePanel::setScenarios(const QStringList &names)
{
    const QStringList ticked = compared();
    m_compareList->blockSignals(true);
    m_compareList->clear();
    for (const QString &name : names) {
        auto *item = new QListWidgetItem(name, m_compareList);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsSelectable);
        item->setCheckState(ticked.contains(name) ? Qt::Checked : Qt::Unchecked);
    }
    m_compareList->blockSignals(false);
}

QList<ChartPanel *> ScenarioComparePanel::chartPanels() const
{
    return {m_costChart, m_gpuChart, m_utilChart};
}

std::optional<ChartFigure> ScenarioComparePanel::currentFigure() const
{
    auto *panel = qobject_cast<ChartPanel *>(m_compareCharts->currentWidget());
    if (panel && m_comparison)
        return panel->figure();
    return std::nullopt;
}

void ScenarioComparePanel::setCompared(const QStringList &names)
{
    m_compareList->blockSignals(true);
    for (int i = 0; i < m_compareList->count(); ++i)
        m_compareList->item(i)->setCheckState(names.contains(m_compareList->item(i)->text()) ? Qt::Checked
                                                                                              : Qt::Unchecked);
    m_compareList->blockSignals(false);
    m_baseline->blockSignals(true);
    m_baseline->clear();
    for (int i = 0; i < m_compareList->count(); ++i)
        if (m_compareList->item(i)->checkState() == Qt::Checked)
            m_baseline->addItem(m_compareList->item(i)->text());
    m_baseline->setCurrentIndex(names.isEmpty() ? -1 : std::max(0, m_baseline->findText(names.first())));
    m_baseline->blockSignals(false);
    refresh();
}

QStringList ScenarioComparePanel::compared() const
{
    QStringList names;
    if (!m_compareList)
        return names;
    const QString baseline = m_baseline ? m_baseline->currentText() : QString();
    for (int i = 0; i < m_compareList->count(); ++i)
        if (m_compareList->item(i)->checkState() == Qt::Checked)
            names << m_compareList->item(i)->text();
    if (names.contains(baseline)) {
        names.removeAll(baseline);
        names.prepend(baseline);
    }
    return names;
}

void ScenarioComparePanel::refresh()
{
    if (!m_compareList)
        return;
    m_comparison.reset();
    m_compareResults.clear();
    m_compareTable->clear();
    m_compareTable->setRowCount(0);
    m_compareTable->setColumnCount(0);
    const QStringList names = compared();
    auto clearCharts = [this] {
        for (ChartPanel *panel : {m_costChart, m_gpuChart, m_utilChart}) {
            ChartFigure empty;
            empty.build = [](QChart::ChartTheme theme) {
                return newStyledChart(tr("Tick 2 to 4 scenarios to compare"), theme);
            };
            panel->setFigure(empty);
        }
    };
    if (names.size() < 2 || names.size() > 4) {
        m_compareNote->setText(names.size() > 4 ? tr("Compare at most 4 scenarios: untick %1.").arg(names.size() - 4)
                                                : tr("Tick 2 to 4 scenarios to compare them against the baseline."));
        clearCharts();
        emit compareUpdated();
        return;
    }
    try {
        const auto inputs = store::scenarioInputs(m_workspace);
        for (const QString &name : names) {
            const auto s = m_workspace.scenario(name);
            if (!s)
                throw engine::InputError("scenario", tr("%1 no longer exists").arg(name).toStdString());
            m_compareResults.push_back(engine::evaluateScenario(*s, inputs));
        }
        m_comparison = engine::compareScenarios(m_compareResults);
    } catch (const engine::InputError &e) {
        m_compareResults.clear();
        m_compareNote->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>")
                                   .arg(tr("Cannot compare: %1").arg(QString::fromUtf8(e.what())).toHtmlEscaped()));
        clearCharts();
        emit compareUpdated();
        return;
    }
    const auto &c = *m_comparison;
    QStringList headers{tr("Metric")};
    for (size_t i = 0; i < c.scenarios.size(); ++i) {
        // Names on two lines, broken at the middle space, so that three scenarios fit side by side.
        const QString name = twoLines(qs(c.scenarios[i]));
        headers << (i == 0 ? tr("%1\n(baseline)").arg(name) : name);
        if (i > 0)
            headers << tr("%1\nΔ vs baseline").arg(name);
    }
    m_compareTable->setColumnCount(int(headers.size()));
    m_compareTable->setHorizontalHeaderLabels(headers);
    m_compareTable->setRowCount(int(c.metrics.size()));
    for (int row = 0; row < int(c.metrics.size()); ++row) {
        const auto &m = c.metrics[size_t(row)];
        auto *label = new QTableWidgetItem(qs(m.label));
        label->setToolTip(qs(m.key));
        m_compareTable->setItem(row, 0, label);
        int column = 1;
        for (size_t i = 0; i < m.values.size(); ++i) {
            auto *value = new QTableWidgetItem(metricText(m, m.values[i], false));
            value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_compareTable->setItem(row, column++, value);
            if (i == 0)
                continue;
            const engine::Decimal d = i < m.deltas.size() ? m.deltas[i] : engine::Decimal();
            auto *delta = new QTableWidgetItem(metricText(m, d, true));
            delta->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            // Less money is good; for other metrics only the sign is shown.
            if (m.unit == "money" && !d.isZero())
                delta->setForeground(d.isNegative() ? QColor(0x1e, 0x88, 0x4c) : QColor(0xc0, 0x39, 0x2b));
            m_compareTable->setItem(row, column++, delta);
        }
    }
    m_compareTable->resizeColumnsToContents();
    m_costChart->setFigure(costByTierFigure(m_compareResults));
    m_gpuChart->setFigure(gpusByPoolFigure(m_compareResults));
    m_utilChart->setFigure(utilizationFigure(m_compareResults));
    const engine::ComparisonMetric *month = c.find("cost_per_month");
    QString note = tr("Baseline: %1.").arg(names.first());
    if (month && month->values.size() >= 2) {
        for (size_t i = 1; i < month->values.size(); ++i)
            note += QLatin1Char(' ') + tr("%1 costs %2 per month (%3).")
                                           .arg(qs(c.scenarios[i]), metricText(*month, month->values[i], false),
                                                metricText(*month, month->deltas[i], true));
    }
    m_compareNote->setText(note);
    emit compareUpdated();
}

} // namespace headroom::ui
