#include "costpage.h"

#include "common/columnviews.h"
#include "common/fields.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "costcharts.h"
#include "common/dialogs.h"
#include "engine/common/errors.h"
#include "common/format.h"
#include "store/cost/costcsv.h"
#include "store/common/storeerror.h"
#include "store/common/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateEdit>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace headroom::ui {

namespace {

QString money(const engine::Money &m)
{
    return QString::fromStdString(m.display());
}

// A rate with every digit the card holds: "$3.8192".
QString rateText(const engine::Money &m)
{
    return QString::fromStdString(m.displayRate());
}

QLineEdit *rateEdit(QWidget *parent, const char *name, const QString &tip)
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(QLatin1String(name));
    edit->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{0,9}(\\.\\d{0,9})?")), edit));
    edit->setToolTip(tip);
    return edit;
}

} // namespace

CostPage::CostPage(store::Workspace &workspace, QWidget *parent)
    : Page(parent)
    , m_workspace(workspace)
{
    setObjectName("costPage");
    m_sweepChart = new ChartPanel(this);
    m_sweepChart->setObjectName("costSweepChart");
    m_weekChart = new ChartPanel(this);
    m_weekChart->setObjectName("costWeekChart");
    m_monthChart = new ChartPanel(this);
    m_monthChart->setObjectName("costMonthChart");
    m_chartTabs = new QTabWidget(this);
    m_chartTabs->addTab(m_sweepChart, tr("Cost vs reserved GPUs"));
    m_chartTabs->addTab(m_weekChart, tr("Hourly mix, one week"));
    m_chartTabs->addTab(m_monthChart, tr("Monthly spend"));

    m_table = newResultsTable("costTable");
    // Columns: option, reserved GPUs, reserved, on-demand, spot, total; then the same demand
    // with no commitment, the saving against it and the reservation's utilization.
    auto *views = new ColumnViews(
        m_table,
        {{tr("Cost"), tr("Each option's cost by tier, to the cent"), [](int c) { return c <= 5; }},
         {tr("Against on-demand"), tr("Each option's total against the same demand with no commitment"),
          [](int c) { return c <= 1 || c >= 5; }}},
        this);
    m_recommendation = newExplanation("costRecommendation");
    layOutPage(buildInputs(),
               resultsColumn(m_chartTabs, ColumnViews::above(views, m_table, this), m_recommendation), 400);

    connect(&m_workspace, &store::Workspace::rateCardsChanged, this, &CostPage::refreshRateCards);
    connect(&m_workspace, &store::Workspace::demandSeriesChanged, this, &CostPage::refreshDemandChoices);

    m_updating = true;
    refreshDemandChoices();
    refreshRateCards();
    m_updating = false;
    recompute();
}

QWidget *CostPage::buildInputs()
{
    auto *panel = new QWidget;
    auto *layout = new QVBoxLayout(panel);

    // Demand
    auto *demandBox = new QGroupBox(tr("Hourly demand"), panel);
    auto *demandLayout = new QVBoxLayout(demandBox);
    auto *sourceRow = new QHBoxLayout;
    m_demandSource = new QComboBox(demandBox);
    m_demandSource->setObjectName("costDemandSource");
    m_demandSource->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_demandSource->setMinimumContentsLength(14);
    m_demandSource->setToolTip(tr("A generated demand shape, or an hourly series imported from CSV "
                                  "(timestamp,gpus or one gpus column)"));
    auto *import = new QPushButton(tr("Import CSV…"), demandBox);
    connect(import, &QPushButton::clicked, this, &CostPage::importDemandWithDialog);
    sourceRow->addWidget(m_demandSource, 1);
    sourceRow->addWidget(import);
    demandLayout->addLayout(sourceRow);

    m_shapeBox = new QWidget(demandBox);
    auto *shape = new QFormLayout(m_shapeBox);
    shape->setContentsMargins(0, 0, 0, 0);
    auto spin = [this](double min, double max, double value, const QString &suffix, const QString &tip,
                       int decimals = 0) {
        auto *box = new QDoubleSpinBox(m_shapeBox);
        box->setRange(min, max);
        box->setDecimals(decimals);
        box->setValue(value);
        box->setSuffix(suffix);
        box->setToolTip(tip);
        connect(box, &QDoubleSpinBox::valueChanged, this, &CostPage::recompute);
        return box;
    };
    m_baseline = spin(0, 1e6, 200, tr(" GPUs"), tr("Demand floor, GPUs busy at every hour"));
    m_baseline->setObjectName("costBaseline");
    m_peak = spin(0, 1e6, 320, tr(" GPUs"), tr("Weekday peak demand, GPUs (at least the baseline)"));
    m_peak->setObjectName("costPeak");
    m_peakHour = new QSpinBox(m_shapeBox);
    m_peakHour->setRange(0, 23);
    m_peakHour->setValue(14);
    m_peakHour->setSuffix(tr(" h UTC"));
    m_peakHour->setToolTip(tr("Hour of the daily peak, 0–23 UTC"));
    connect(m_peakHour, &QSpinBox::valueChanged, this, &CostPage::recompute);
    m_weekend = spin(0, 1, 0.6, QString(), tr("Weekend share of the weekday bump above the baseline, 0–1"), 2);
    m_growth = spin(-50, 100, 0, tr(" %/month"), tr("Linear demand growth per 30 days, −50 to 100 %"), 1);
    m_noise = spin(0, 50, 5, tr(" %"), tr("Hour-to-hour noise as a share of demand, 0–50 %"), 1);
    m_noise->setObjectName("costNoise");
    // Calendar months from the start date (0: one week); the hours are the real hours between
    // the dates (engine::termHours), 8,760 or 8,784 a year.
    m_horizon = new QComboBox(m_shapeBox);
    m_horizon->setObjectName("costHorizon");
    m_horizon->addItem(tr("1 week (168 h)"), 0);
    m_horizon->addItem(tr("1 month"), 1);
    m_horizon->addItem(tr("1 year"), 12);
    m_horizon->addItem(tr("3 years"), 36);
    m_horizon->setCurrentIndex(2);
    m_horizon->setToolTip(tr("Length of the series in calendar months from the start date (real hours: 8,760 h a "
                             "common year, 8,784 h a leap year); use the commitment term, not only the look-back "
                             "window"));
    connect(m_horizon, &QComboBox::currentIndexChanged, this, &CostPage::recompute);
    m_startDate = new QDateEdit(m_shapeBox);
    m_startDate->setObjectName("costStartDate");
    m_startDate->setDisplayFormat(QStringLiteral("yyyy-MM-dd"));
    m_startDate->setCalendarPopup(true);
    {
        const engine::CivilDate first = engine::firstOfNextMonth(engine::todayUtc());
        m_startDate->setDate(QDate(int(first.year()), int(unsigned(first.month())), int(unsigned(first.day()))));
    }
    m_startDate->setToolTip(tr("First day of the series and of the commitment (00:00 UTC); default: the first of "
                               "next month"));
    connect(m_startDate, &QDateEdit::dateChanged, this, &CostPage::recompute);
    m_seed = new QSpinBox(m_shapeBox);
    m_seed->setRange(1, 1'000'000);
    m_seed->setToolTip(tr("Seed of the deterministic noise"));
    connect(m_seed, &QSpinBox::valueChanged, this, &CostPage::recompute);
    shape->addRow(tr("Baseline:"), m_baseline);
    shape->addRow(tr("Daily peak:"), m_peak);
    shape->addRow(tr("Peak hour:"), m_peakHour);
    shape->addRow(tr("Weekend factor:"), m_weekend);
    shape->addRow(tr("Growth:"), m_growth);
    shape->addRow(tr("Noise:"), m_noise);
    shape->addRow(tr("Start date:"), m_startDate);
    shape->addRow(tr("Horizon:"), m_horizon);
    shape->addRow(tr("Seed:"), m_seed);
    demandLayout->addWidget(m_shapeBox);
    connect(m_demandSource, &QComboBox::currentIndexChanged, this, [this] {
        m_shapeBox->setVisible(m_demandSource->currentData().toString().isEmpty());
        recompute();
    });

    // Prices
    auto *pricesBox = new QGroupBox(tr("Prices (per GPU-hour)"), panel);
    auto *prices = new QFormLayout(pricesBox);
    m_rateCard = new QComboBox(pricesBox);
    m_rateCard->setObjectName("costRateCard");
    m_rateCard->setToolTip(tr("Rate card the prices below come from; edit them to try other prices"));
    m_rateCard->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_rateCard->setMinimumContentsLength(18);
    connect(m_rateCard, &QComboBox::currentIndexChanged, this, &CostPage::applyRateCard);
    m_term = new QComboBox(pricesBox);
    m_term->setObjectName("costTerm");
    m_term->addItem(tr("1-year commitment"), 1);
    m_term->addItem(tr("3-year commitment"), 3);
    m_term->setToolTip(tr("Which committed rate of the card the reserved GPUs pay"));
    connect(m_term, &QComboBox::currentIndexChanged, this, &CostPage::applyRateCard);
    m_onDemandRate = rateEdit(pricesBox, "costOnDemandRate", tr("On-demand price per GPU-hour"));
    m_reservedRate = rateEdit(pricesBox, "costReservedRate",
                              tr("Committed price per GPU-hour, paid every hour whether used or not"));
    m_spotRate = rateEdit(pricesBox, "costSpotRate", tr("Spot price per GPU-hour; 0 = no spot"));
    for (QLineEdit *e : {m_onDemandRate, m_reservedRate, m_spotRate})
        connect(e, &QLineEdit::textChanged, this, &CostPage::recompute);
    m_spotShare = new QDoubleSpinBox(pricesBox);
    m_spotShare->setObjectName("costSpotShare");
    m_spotShare->setRange(0, 100);
    m_spotShare->setSuffix(tr(" %"));
    m_spotShare->setToolTip(tr("Interruption-tolerant share of the elastic demand that may run on spot, 0–100 %"));
    m_spotOverhead = new QDoubleSpinBox(pricesBox);
    m_spotOverhead->setRange(0, 100);
    m_spotOverhead->setValue(10);
    m_spotOverhead->setSuffix(tr(" %"));
    m_spotOverhead->setToolTip(tr("Extra spot GPU-hours lost to interruptions (restarts, checkpoints), 0–100 %"));
    for (QDoubleSpinBox *b : {m_spotShare, m_spotOverhead})
        connect(b, &QDoubleSpinBox::valueChanged, this, &CostPage::recompute);
    m_currency = new QLabel(pricesBox);
    m_currency->setWordWrap(true);
    prices->addRow(tr("Rate card:"), m_rateCard);
    prices->addRow(tr("Commitment:"), m_term);
    prices->addRow(tr("On-demand:"), m_onDemandRate);
    prices->addRow(tr("Reserved:"), m_reservedRate);
    prices->addRow(tr("Spot:"), m_spotRate);
    prices->addRow(tr("Spot share of elastic:"), m_spotShare);
    prices->addRow(tr("Spot interruption overhead:"), m_spotOverhead);
    prices->addRow(tr("Currency:"), m_currency);

    // Plan
    auto *planBox = new QGroupBox(tr("Plan"), panel);
    auto *plan = new QFormLayout(planBox);
    m_useOptimum = new QCheckBox(tr("Reserve the optimum"), planBox);
    m_useOptimum->setObjectName("costUseOptimum");
    m_useOptimum->setChecked(true);
    m_reserved = new QSpinBox(planBox);
    m_reserved->setObjectName("costReserved");
    m_reserved->setRange(0, 10'000'000);
    setCountSuffix(m_reserved, tr(" GPU(s)"));
    m_reserved->setEnabled(false);
    m_reserved->setToolTip(tr("Reserved GPUs of the plan shown in the hourly and monthly charts"));
    connect(m_useOptimum, &QCheckBox::toggled, this, [this](bool on) {
        m_reserved->setEnabled(!on);
        recompute();
    });
    connect(m_reserved, &QSpinBox::valueChanged, this, &CostPage::recompute);
    m_week = new QSpinBox(planBox);
    m_week->setObjectName("costWeek");
    m_week->setRange(1, 1);
    m_week->setToolTip(tr("Week of the series shown in the hourly chart"));
    connect(m_week, &QSpinBox::valueChanged, this, &CostPage::recompute);
    plan->addRow(m_useOptimum);
    plan->addRow(tr("Reserved GPUs:"), m_reserved);
    plan->addRow(tr("Week shown:"), m_week);

    layout->addWidget(demandBox);
    layout->addWidget(pricesBox);
    layout->addWidget(planBox);
    layout->addStretch();
    return panel;
}

void CostPage::refreshDemandChoices()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QString current = m_demandSource->currentData().toString();
    m_demandSource->clear();
    m_demandSource->addItem(tr("Generated shape"), QString());
    for (const QString &name : m_workspace.demandSeriesNames())
        m_demandSource->addItem(tr("Series: %1").arg(name), name);
    const int index = m_demandSource->findData(current);
    m_demandSource->setCurrentIndex(std::max(index, 0));
    m_shapeBox->setVisible(m_demandSource->currentData().toString().isEmpty());
    m_updating = wasUpdating;
    recompute();
}

void CostPage::refreshRateCards()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const QString current = m_rateCard->currentData().toString();
    m_rateCard->clear();
    for (const engine::RateCard &card : m_workspace.rateCards()) {
        const QString key = QString::fromStdString(card.key());
        m_rateCard->addItem(QStringLiteral("%1 · %2 · %3 · %4")
                                .arg(QString::fromStdString(card.provider), QString::fromStdString(card.region),
                                     QString::fromStdString(card.gpuId), QString::fromStdString(card.effectiveDate)),
                            key);
    }
    int index = m_rateCard->findData(current);
    if (index < 0) // first start: the AWS H100 card in force
        for (int i = m_rateCard->count() - 1; i >= 0 && index < 0; --i)
            if (m_rateCard->itemData(i).toString().startsWith(QLatin1String("AWS/")) &&
                m_rateCard->itemData(i).toString().contains(QLatin1String("/h100-sxm@")))
                index = i;
    m_rateCard->setCurrentIndex(std::max(index, 0));
    m_updating = wasUpdating;
    applyRateCard();
}

void CostPage::applyRateCard()
{
    const auto card = m_workspace.rateCard(m_rateCard->currentData().toString());
    if (!card)
        return;
    const bool wasUpdating = m_updating;
    m_updating = true;
    const engine::Decimal reserved = m_term->currentData().toInt() == 3 ? card->reserved3y : card->reserved1y;
    m_onDemandRate->setText(QString::fromStdString(card->onDemand.toString()));
    m_reservedRate->setText(QString::fromStdString(reserved.toString()));
    m_spotRate->setText(QString::fromStdString(card->spot.toString()));
    m_currencyCode = QString::fromStdString(card->currency);
    m_currency->setText(m_currencyCode +
                        (card->committedAreExamples ? tr(" — committed rates are examples") : QString()));
    m_updating = wasUpdating;
    recompute();
}

CostPageInputs CostPage::inputs() const
{
    CostPageInputs in;
    in.demandSeries = m_demandSource->currentData().toString();
    in.baselineGpus = m_baseline->value();
    in.peakGpus = m_peak->value();
    in.peakHour = m_peakHour->value();
    in.weekendFactor = m_weekend->value();
    in.growthPercent = m_growth->value();
    in.noisePercent = m_noise->value();
    in.horizonMonths = m_horizon->currentData().toInt();
    in.startDate = m_startDate->date();
    in.seed = m_seed->value();
    in.rateCard = m_rateCard->currentData().toString();
    in.termYears = m_term->currentData().toInt() == 3 ? 3 : 1;
    in.onDemandRate = m_onDemandRate->text();
    in.reservedRate = m_reservedRate->text();
    in.spotRate = m_spotRate->text();
    in.spotSharePercent = m_spotShare->value();
    in.spotOverheadPercent = m_spotOverhead->value();
    in.useOptimum = m_useOptimum->isChecked();
    in.reserved = m_reserved->value();
    in.week = m_week->value();
    return in;
}

void CostPage::recompute()
{
    if (m_updating)
        return;
    m_error.clear();
    try {
        const CostPageInputs in = inputs();
        m_cost = analyseCost(m_workspace, in);
        const CostAnalysis &a = *m_cost;
        if (in.useOptimum) {
            const QSignalBlocker block(m_reserved);
            m_reserved->setValue(int(a.analysis.optimalReserved));
        }
        {
            const QSignalBlocker block(m_week);
            m_week->setRange(1, a.weeks);
        }
        CostFigures figures = costFigures(a, in);
        m_sweepChart->setFigure(std::move(figures.sweep));
        m_weekChart->setFigure(std::move(figures.week));
        m_monthChart->setFigure(std::move(figures.month));
        fillResultsTable(*m_table, costTable(a), 1);
        m_table->horizontalHeaderItem(6)->setToolTip(
            tr("Every row is compared with its own demand run with no commitment: on-demand, and spot for the spot "
               "share (like with like)"));
        updateRecommendation();
    } catch (const engine::InputError &e) {
        m_cost.reset();
        showError(fieldMessage(e));
    }
    emit recomputed();
}

const engine::ReserveAnalysis &CostPage::analysis() const
{
    static const engine::ReserveAnalysis none;
    return m_cost ? m_cost->analysis : none;
}

const std::vector<CostOption> &CostPage::options() const
{
    static const std::vector<CostOption> none;
    return m_cost ? m_cost->options : none;
}

std::optional<engine::DemandSeries> CostPage::demand() const
{
    return m_cost ? std::optional<engine::DemandSeries>(m_cost->demand) : std::nullopt;
}

QJsonObject CostPage::currentTableSource() const
{
    return m_cost ? shownTableSource(*m_table, costSource("cost-table", *m_cost, inputs())) : QJsonObject();
}

QString CostPage::fieldMessage(const engine::InputError &e) const
{
    // The engine names its inputs by key; the page says the label the user sees.
    static const std::pair<const char *, const char *> kLabels[] = {
        {"on_demand", QT_TR_NOOP("On-demand price")},   {"reserved", QT_TR_NOOP("Reserved price")},
        {"reserved_1y", QT_TR_NOOP("Reserved price")},   {"reserved_3y", QT_TR_NOOP("Reserved price")},
        {"reserved_rate", QT_TR_NOOP("Reserved price")}, {"spot", QT_TR_NOOP("Spot price")},
        {"elastic_rate", QT_TR_NOOP("On-demand and spot prices")}, {"spot_overhead", QT_TR_NOOP("Spot overhead")},
        {"demand", QT_TR_NOOP("Demand")},
    };
    QString message = QString::fromUtf8(e.what());
    const QString key = QString::fromStdString(e.field());
    for (const auto &[field, label] : kLabels) {
        if (key != QLatin1String(field))
            continue;
        const QString shown = tr(label);
        // "on_demand must be greater than 0 (got 0 USD)" → "On-demand price must be …".
        if (message.startsWith(key + QLatin1Char(' ')))
            return shown + message.mid(key.size());
        return tr("%1: %2").arg(shown, message);
    }
    return tr("%1: %2").arg(key, message);
}

void CostPage::showError(const QString &message)
{
    m_error = message;
    // Results of the previous inputs would read as the answer to these: clear them.
    m_table->setRowCount(0);
    for (ChartPanel *chart : {m_sweepChart, m_weekChart, m_monthChart})
        chart->setFigure(emptyFigure(tr("No result"), tr("Cannot compute — %1").arg(message)));
    m_recommendation->setText(tr("<span style='color:#c0392b'>Cannot compute — %1</span>").arg(message.toHtmlEscaped()));
}

void CostPage::updateRecommendation()
{
    const CostAnalysis &a = *m_cost;
    const engine::PlanRates &rates = a.rates;
    const engine::Money &reservedRate = a.reservedRate;
    const engine::Money &onDemandRate = a.rates.onDemand;
    const CostOption &allOnDemand = a.options[0];
    const CostOption &p75 = a.options[2];
    const CostOption &optimum = a.options[3];
    const bool threeYear = a.threeYear;
    const QString term = threeYear ? tr("3 years") : tr("1 year");
    const int64_t seriesHours = int64_t(a.demand.gpus.size());
    const std::optional<engine::CommitmentObligation> &commitment = a.commitment;
    // Totals as the table prints them.
    const engine::Money allTotal = engine::shownPlanCost(allOnDemand.cost).total;
    const engine::Money optimumTotal = engine::shownPlanCost(optimum.cost).total;
    const engine::Money p75Total = engine::shownPlanCost(p75.cost).total;
    QStringList lines;
    if (!a.analysis.commitmentPays) {
        lines << tr("<b>Do not reserve:</b> the committed rate %1 is not below the elastic rate, so the commitment "
                    "never pays. Run everything on-demand/spot.")
                     .arg(rateText(reservedRate));
    } else {
        const double saving = 1.0 - optimumTotal.amount.toDouble() / allTotal.amount.toDouble();
        if (commitment && !commitment->coversTerm && commitment->total.amount > engine::Decimal())
            // The series sees only part of the term: no claim about the whole commitment.
            lines << tr("<b>Reserve %1 for %2 only if the rest of the term pays too:</b> over the %3 h of the series "
                        "(from %4) it costs %5 against %6 all on demand (%7 less), but the series is %8 of the "
                        "term the commitment binds you to.")
                         .arg(formatGpus(optimum.reserved), term, formatCount(seriesHours),
                              QString::fromStdString(engine::isoDate(a.seriesStart)), money(optimumTotal),
                              money(allTotal), formatPercent(saving), formatPercent(commitment->shareConsumed));
        else
            lines << tr("<b>Reserve %1 for %2:</b> %3 cheaper than all on-demand over the series (%4 instead of %5 "
                        "over %6 h from %7).")
                         .arg(formatGpus(optimum.reserved), term, formatPercent(saving), money(optimumTotal), money(allTotal),
                              formatCount(seriesHours), QString::fromStdString(engine::isoDate(a.seriesStart)));
        if (commitment && !commitment->coversTerm && commitment->total.amount > engine::Decimal()) {
            lines << tr("<span style='color:#b06000'><b>The whole commitment is owed:</b> %1 × %2 × %3 h (%4 to "
                        "%5) = %6, of which %7 upfront at signing. The series covers %8 h, %9 of the term (%10 of the "
                        "obligation), so the saving above is measured on that share only. Use the forecast hand-off "
                        "(Forecast page) to cost the whole term.</span>")
                         .arg(formatGpus(optimum.reserved), rateText(reservedRate),
                              formatCount(commitment->termHours), QString::fromStdString(commitment->startDate),
                              QString::fromStdString(commitment->endDate), money(commitment->total),
                              money(commitment->upfront), formatCount(seriesHours),
                              formatPercent(commitment->shareConsumed))
                         .arg(money(commitment->inHorizon));
        } else if (commitment && commitment->total.amount > engine::Decimal()) {
            lines << tr("The commitment is owed in full: %1 from %2 to %3 (%4 h), %5.")
                         .arg(money(commitment->total), QString::fromStdString(commitment->startDate),
                              QString::fromStdString(commitment->endDate), formatCount(commitment->termHours),
                              commitment->upfront.amount.isZero()
                                  ? tr("nothing upfront")
                                  : tr("%1 of it upfront at signing").arg(money(commitment->upfront)));
            if (seriesHours > commitment->termHours)
                lines << renewalLines(optimum.reserved, reservedRate, threeYear ? 36 : 12);
        }
        const int64_t over = p75.reserved - optimum.reserved;
        const engine::Money extra = p75Total - optimumTotal;
        const engine::Money extraPerMonth{
            (extra.amount * engine::Decimal::fromInt(engine::kHoursPer30DayMonth) / engine::Decimal::fromInt(seriesHours))
                .rounded(2),
            extra.currency};
        lines << tr("The P75 rule would %1 by %2 and cost %3 more over the series (%4 per 30-day month); the "
                    "rule is right only for discounts of 50–75 %, this one is %5.")
                     .arg(over >= 0 ? tr("over-reserve") : tr("under-reserve"))
                     .arg(formatGpus(std::abs(over)))
                     .arg(money(extra), money(extraPerMonth),
                          formatPercent(1.0 - engine::breakEvenUtilization(reservedRate, onDemandRate), 0));
    }
    lines << tr("Critical fractile %1: reserve where demand exceeds R in %2 of hours. Break-even utilization of "
                "the commitment: %3 — a reserved GPU must be busy at least that share of hours to beat on-demand.")
                 .arg(a.analysis.criticalFractile, 0, 'f', 3)
                 .arg(formatPercent(a.analysis.criticalFractile))
                 .arg(formatPercent(engine::breakEvenUtilization(reservedRate, onDemandRate)));
    if (rates.spot.amount.isZero())
        lines << tr("No spot price on this card: the elastic tier is on-demand only.");
    m_recommendation->setText(lines.join(QStringLiteral("<br>")));
}

QString CostPage::renewalLines(int64_t reserved, const engine::Money &rate, int months) const
{
    const int64_t seriesHours = int64_t(m_cost->demand.gpus.size());
    // A series longer than the term renews the commitment term after term; the last renewal is
    // owed in full even where the series ends inside it.
    QStringList terms;
    engine::Decimal owed;
    engine::CivilDate start = m_cost->seriesStart;
    int64_t covered = 0;
    for (int k = 0; covered < seriesHours; ++k) {
        const engine::CivilDate end = engine::addMonths(start, months);
        const int64_t hours = engine::hoursBetween(start, end);
        const engine::Decimal cost = (rate.amount * reserved * hours).rounded(2);
        owed += cost;
        const QString span = tr("%1 to %2, %3 h, %4")
                                 .arg(QString::fromStdString(engine::isoDate(start)),
                                      QString::fromStdString(engine::isoDate(end)), formatCount(hours),
                                      money(engine::Money{cost, rate.currency}));
        terms << (k == 0 ? tr("the first term %1").arg(span) : tr("renewal %1: %2").arg(k).arg(span));
        covered += hours;
        start = end;
    }
    const int64_t past = covered - seriesHours;
    return tr("The series runs %1 h, longer than the term: the commitment is renewed %2 — %3. %4 owed in all%5; the "
              "table's reserved spend, %6, counts the hours of the series.")
        .arg(formatCount(seriesHours), terms.size() - 1 == 1 ? tr("once") : tr("%1 times").arg(terms.size() - 1),
             terms.join(QStringLiteral("; ")), money(engine::Money{owed, rate.currency}),
             past > 0 ? tr(" (the last renewal runs %1 h past the series and is owed in full)").arg(formatCount(past))
                      : QString(),
             money(engine::Money{(rate.amount * reserved * seriesHours).rounded(2), rate.currency}));
}

QString CostPage::recommendation() const
{
    return m_recommendation->text();
}

bool CostPage::importDemand(const QString &path, QString *error)
{
    try {
        engine::DemandSeries series = store::readDemandCsvFile(path);
        series.name = QFileInfo(path).completeBaseName().toStdString();
        m_workspace.putDemandSeries(series);
        selectDemand(QString::fromStdString(series.name));
    } catch (const store::StoreError &e) {
        *error = e.message();
        return false;
    }
    return true;
}

void CostPage::importDemandWithDialog()
{
    const QString path = Dialogs::openFileName(this, tr("Import hourly demand"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!importDemand(path, &error))
        Dialogs::warning(this, tr("Import failed"), tr("Nothing was imported.\n\n%1").arg(error));
}

void CostPage::selectDemand(const QString &name)
{
    const int index = m_demandSource->findData(name);
    if (index >= 0)
        m_demandSource->setCurrentIndex(index);
}

QList<ChartPanel *> CostPage::chartPanels() const
{
    QList<ChartPanel *> panels{m_sweepChart, m_weekChart, m_monthChart};
    if (auto *current = qobject_cast<ChartPanel *>(m_chartTabs->currentWidget())) {
        panels.removeOne(current);
        panels.prepend(current);
    }
    return panels;
}

} // namespace headroom::ui
