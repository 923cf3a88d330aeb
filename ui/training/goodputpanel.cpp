#include "goodputpanel.h"

#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/fields.h"
#include "report/reportsnapshot.h"

#include "engine/common/errors.h"

#include <QAbstractSpinBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSpinBox>
#include <QValueAxis>
#include <QVBoxLayout>
#include <algorithm>

namespace headroom::ui {

namespace {

QDoubleSpinBox *seconds(QWidget *parent, const char *name, double value, const QString &tip)
{
    return newDoubleSpinBox(parent, name, 0.0, 3600.0, value, 4, QStringLiteral(" s"), tip);
}

} // namespace

GoodputPanel::GoodputPanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName("goodputPanel");
    m_alphaC = seconds(this, "goodputAlphaC", 0.1, tr("α_c: fixed time of a micro-batch's forward and backward pass"));
    m_betaC = seconds(this, "goodputBetaC", 0.01, tr("β_c: time per sample of a micro-batch"));
    m_alphaR = seconds(this, "goodputAlphaR", 0.05, tr("α_r: gradient all-reduce within a node"));
    m_betaR = seconds(this, "goodputBetaR", 0.005, tr("β_r: added per replica past two, within a node"));
    m_alphaN = seconds(this, "goodputAlphaN", 0.2, tr("α_n: gradient all-reduce across nodes"));
    m_betaN = seconds(this, "goodputBetaN", 0.02, tr("β_n: added per replica past two, across nodes"));
    m_gamma = newDoubleSpinBox(this, "goodputGamma", 1.0, 10.0, 1.0, 2, QString(),
                               tr("γ: overlap of gradient compute and all-reduce, 1 (none) to 10 (full)"));
    m_noise = newDoubleSpinBox(this, "goodputNoise", 0.0, 1e9, 1000.0, 0, tr(" samples"),
                               tr("φ: the gradient noise scale (see the user guide for how to measure it)"));
    m_initialBatch = newSpinBox(this, "goodputInitialBatch", 1, 1 << 20, 128, tr(" samples"),
                                tr("M₀: the batch the job was tuned at (efficiency 1)"));
    m_maxBatch = newSpinBox(this, "goodputMaxBatch", 1, 1 << 20, 512, tr(" samples"), tr("The largest batch the job accepts"));
    m_maxMicro = newSpinBox(this, "goodputMaxMicro", 1, 1 << 16, 64, tr(" samples"),
                            tr("The largest micro-batch one GPU holds"));
    m_perNode = newSpinBox(this, "goodputPerNode", 1, 1024, 4, tr(" GPU(s)"), tr("GPUs a node"));
    m_maxGpus = newSpinBox(this, "goodputMaxGpus", 1, 512, 16, tr(" GPU(s)"), tr("The curve runs from 1 to this many GPUs"));

    // Narrow fields: the tab shares the results column with the other charts, and the widest
    // value a field allows (φ up to 10⁹) would otherwise set the window's smallest width.
    for (QAbstractSpinBox *box : std::initializer_list<QAbstractSpinBox *>{
             m_alphaC, m_betaC, m_alphaR, m_betaR, m_alphaN, m_betaN, m_gamma, m_noise, m_initialBatch, m_maxBatch,
             m_maxMicro, m_perNode, m_maxGpus})
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("0.0000 s")) + 40);
    auto *grid = new QGridLayout;
    const auto add = [&](int row, int column, const QString &label, QWidget *field) {
        auto *title = new QLabel(label, this);
        title->setBuddy(field);
        grid->addWidget(title, row, column * 2);
        grid->addWidget(field, row, column * 2 + 1);
    };
    add(0, 0, tr("α_c:"), m_alphaC);
    add(0, 1, tr("β_c:"), m_betaC);
    add(0, 2, tr("γ:"), m_gamma);
    add(0, 3, tr("φ:"), m_noise);
    add(1, 0, tr("α_r:"), m_alphaR);
    add(1, 1, tr("β_r:"), m_betaR);
    add(1, 2, tr("M₀:"), m_initialBatch);
    add(1, 3, tr("Max batch:"), m_maxBatch);
    add(2, 0, tr("α_n:"), m_alphaN);
    add(2, 1, tr("β_n:"), m_betaN);
    add(2, 2, tr("Max micro:"), m_maxMicro);
    add(2, 3, tr("Per node:"), m_perNode);
    add(3, 0, tr("GPUs up to:"), m_maxGpus);
    m_summary = new QLabel(this);
    m_summary->setObjectName("goodputSummary");
    m_summary->setWordWrap(true);
    m_summary->setMinimumWidth(0);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(m_summary, 3, 2, 1, 6);
    m_chart = new ChartPanel(this);
    m_chart->setObjectName("goodputChart");
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(grid);
    layout->addWidget(m_chart, 1);

    for (QDoubleSpinBox *box : {m_alphaC, m_betaC, m_alphaR, m_betaR, m_alphaN, m_betaN, m_gamma, m_noise})
        connect(box, &QDoubleSpinBox::valueChanged, this, &GoodputPanel::recompute);
    for (QSpinBox *box : {m_initialBatch, m_maxBatch, m_maxMicro, m_perNode, m_maxGpus})
        connect(box, &QSpinBox::valueChanged, this, &GoodputPanel::recompute);
    recompute();
}

engine::GoodputJob GoodputPanel::job() const
{
    engine::GoodputJob job;
    job.perf.alphaCompute = m_alphaC->value();
    job.perf.betaCompute = m_betaC->value();
    job.perf.alphaIntra = m_alphaR->value();
    job.perf.betaIntra = m_betaR->value();
    job.perf.alphaInter = m_alphaN->value();
    job.perf.betaInter = m_betaN->value();
    job.perf.gamma = m_gamma->value();
    job.noiseScale = m_noise->value();
    job.initialBatch = m_initialBatch->value();
    job.maxBatch = m_maxBatch->value();
    job.maxMicroBatch = m_maxMicro->value();
    job.gpusPerNode = m_perNode->value();
    return job;
}

int GoodputPanel::maxGpus() const
{
    return m_maxGpus->value();
}

QString GoodputPanel::summary() const
{
    return m_summary->text();
}

void GoodputPanel::recompute()
{
    const engine::GoodputJob job = this->job();
    try {
        m_curve = engine::goodputCurve(job, maxGpus());
    } catch (const engine::InputError &e) {
        m_curve.clear();
        m_summary->setText(tr("Not computed: %1").arg(QString::fromUtf8(e.what())));
        m_chart->setFigure(emptyFigure(tr("Goodput against GPUs"), QString::fromUtf8(e.what())));
        return;
    }
    const auto best = std::max_element(m_curve.begin(), m_curve.end(), [](const auto &a, const auto &b) {
        return a.goodput < b.goodput;
    });
    if (best == m_curve.end() || best->goodput <= 0) {
        m_summary->setText(tr("No GPU count makes a batch from M₀ to the largest with these micro-batches."));
    } else {
        m_summary->setText(tr("Most goodput: %1 GPUs at batch %2 (micro-batch %3 × %4), %5 samples/s, %6× one GPU.")
                               .arg(best->gpus)
                               .arg(best->batch)
                               .arg(best->microBatch)
                               .arg(best->accumulation + 1)
                               .arg(QString::number(best->goodput, 'f', 1))
                               .arg(m_curve.front().goodput > 0 ? QString::number(best->goodput / m_curve.front().goodput, 'f', 2)
                                                                : QStringLiteral("–")));
    }
    m_chart->setFigure(goodputFigure(job, maxGpus(), m_curve));
}

namespace {

QJsonObject goodputSource(const engine::GoodputJob &job, int maxGpus)
{
    return {{QStringLiteral("kind"), QStringLiteral("goodput-curve")},
            {QStringLiteral("alpha_c"), job.perf.alphaCompute},
            {QStringLiteral("beta_c"), job.perf.betaCompute},
            {QStringLiteral("alpha_r"), job.perf.alphaIntra},
            {QStringLiteral("beta_r"), job.perf.betaIntra},
            {QStringLiteral("alpha_n"), job.perf.alphaInter},
            {QStringLiteral("beta_n"), job.perf.betaInter},
            {QStringLiteral("gamma"), job.perf.gamma},
            {QStringLiteral("noise_scale"), job.noiseScale},
            {QStringLiteral("initial_batch"), qint64(job.initialBatch)},
            {QStringLiteral("max_batch"), qint64(job.maxBatch)},
            {QStringLiteral("max_micro_batch"), qint64(job.maxMicroBatch)},
            {QStringLiteral("gpus_per_node"), job.gpusPerNode},
            {QStringLiteral("max_gpus"), maxGpus}};
}

} // namespace

std::optional<store::ReportItem> goodputReportItem(const store::Workspace &, const QJsonObject &source, QString *problem)
{
    problem->clear();
    if (source.value(QStringLiteral("kind")).toString() != QLatin1String("goodput-curve"))
        return std::nullopt;
    engine::GoodputJob job;
    job.perf.alphaCompute = source.value(QStringLiteral("alpha_c")).toDouble();
    job.perf.betaCompute = source.value(QStringLiteral("beta_c")).toDouble();
    job.perf.alphaIntra = source.value(QStringLiteral("alpha_r")).toDouble();
    job.perf.betaIntra = source.value(QStringLiteral("beta_r")).toDouble();
    job.perf.alphaInter = source.value(QStringLiteral("alpha_n")).toDouble();
    job.perf.betaInter = source.value(QStringLiteral("beta_n")).toDouble();
    job.perf.gamma = source.value(QStringLiteral("gamma")).toDouble();
    job.noiseScale = source.value(QStringLiteral("noise_scale")).toDouble();
    job.initialBatch = source.value(QStringLiteral("initial_batch")).toInteger();
    job.maxBatch = source.value(QStringLiteral("max_batch")).toInteger();
    job.maxMicroBatch = source.value(QStringLiteral("max_micro_batch")).toInteger();
    job.gpusPerNode = source.value(QStringLiteral("gpus_per_node")).toInt();
    const int maxGpus = source.value(QStringLiteral("max_gpus")).toInt();
    // The same limits as the tab's fields, so a hand-edited source cannot ask for an endless search.
    if (job.maxBatch > (1 << 20) || job.maxMicroBatch > (1 << 16) || maxGpus < 1 || maxGpus > 512) {
        *problem = QObject::tr("the goodput curve's limits are outside what the Goodput tab allows");
        return std::nullopt;
    }
    try {
        engine::validate(job);
    } catch (const engine::InputError &e) {
        *problem = QString::fromUtf8(e.what());
        return std::nullopt;
    }
    return reportItemFromFigure(goodputFigure(job, maxGpus));
}

ChartFigure goodputFigure(const engine::GoodputJob &job, int maxGpus, std::vector<engine::GoodputPoint> curve)
{
    const QString title = QObject::tr("Goodput against GPUs (Pollux)");
    try {
        if (curve.empty())
            curve = engine::goodputCurve(job, maxGpus);
    } catch (const engine::InputError &e) {
        return emptyFigure(title, QString::fromUtf8(e.what()));
    }
    const QString caption =
        QObject::tr("At each GPU count the micro-batch and accumulation with the most goodput = samples/s × (φ + M₀) ÷ "
                    "(φ + M), φ = %1, M₀ = %2; the step is s × T_grad + (T_grad^γ + T_sync^γ)^(1/γ) (Qiao et al., OSDI 2021).")
            .arg(job.noiseScale)
            .arg(job.initialBatch);
    ChartFigure figure{title, caption, [curve, title](QChart::ChartTheme theme) {
                QChart *chart = newStyledChart(title, theme);
                auto *goodput = new QLineSeries;
                goodput->setName(QObject::tr("Goodput (M₀-samples/s)"));
                auto *throughput = new QLineSeries;
                throughput->setName(QObject::tr("Throughput (samples/s)"));
                auto *efficiency = new QLineSeries;
                efficiency->setName(QObject::tr("Efficiency of the batch"));
                auto *best = new QScatterSeries;
                best->setName(QObject::tr("Most goodput"));
                best->setMarkerSize(11);
                double top = 0;
                const engine::GoodputPoint *most = nullptr;
                for (const engine::GoodputPoint &p : curve) {
                    if (p.goodput <= 0)
                        continue;
                    goodput->append(double(p.gpus), p.goodput);
                    throughput->append(double(p.gpus), p.throughput);
                    efficiency->append(double(p.gpus), p.efficiency);
                    top = std::max(top, p.throughput);
                    if (!most || p.goodput > most->goodput)
                        most = &p;
                }
                if (most)
                    best->append(double(most->gpus), most->goodput);
                auto *x = new QValueAxis;
                // Half a GPU either side, so a marker at either end is drawn whole.
                x->setRange(0.5, std::max(2.0, double(curve.back().gpus)) + 0.5);
                x->setLabelFormat(QStringLiteral("%.0f"));
                x->setTitleText(QObject::tr("GPUs"));
                auto *y = new QValueAxis;
                y->setRange(0, top > 0 ? top * 1.1 : 1.0);
                y->applyNiceNumbers();
                y->setLabelFormat(QStringLiteral("%.0f"));
                y->setTitleText(QObject::tr("Samples per second"));
                auto *right = new QValueAxis;
                right->setRange(0, 1.05);
                right->setLabelFormat(QStringLiteral("%.1f"));
                right->setTitleText(QObject::tr("Efficiency"));
                chart->addAxis(x, Qt::AlignBottom);
                chart->addAxis(y, Qt::AlignLeft);
                chart->addAxis(right, Qt::AlignRight);
                for (QLineSeries *s : {goodput, throughput}) {
                    chart->addSeries(s);
                    s->attachAxis(x);
                    s->attachAxis(y);
                }
                chart->addSeries(best);
                best->attachAxis(x);
                best->attachAxis(y);
                QPen dashed = efficiency->pen();
                dashed.setStyle(Qt::DashLine);
                efficiency->setPen(dashed);
                chart->addSeries(efficiency);
                efficiency->attachAxis(x);
                efficiency->attachAxis(right);
                shareSeriesColours(chart, theme);
                return chart;
            }};
    figure.source = goodputSource(job, maxGpus);
    return figure;
}

} // namespace headroom::ui
