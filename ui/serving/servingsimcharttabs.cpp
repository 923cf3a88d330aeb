#include "servingsimcharttabs.h"

#include "cli/common/format.h"
#include "common/chartpanel.h"
#include "common/chartstyle.h"
#include "common/format.h"
#include "common/paintedfigureview.h"
#include "servingsimcharts.h"
#include "servingsimtext.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

using cli::formatDecimal;
using Results = ServingSimPage::Results;
using CachePoint = ServingSimPage::CachePoint;
using ReplicaPoint = ServingSimPage::ReplicaPoint;
constexpr int kRouters = ServingSimPage::kRouters;

} // namespace

ServingSimChartTabs::ServingSimChartTabs(QWidget *page)
    : QObject(page)
{
    m_hitChart = new ChartPanel(page);
    m_hitChart->setObjectName("simHitRateChart");
    m_ttftChart = new ChartPanel(page);
    m_ttftChart->setObjectName("simTtftChart");
    m_attainmentChart = new ChartPanel(page);
    m_attainmentChart->setObjectName("simAttainmentChart");
    m_strip = new PaintedFigureView(page);
    m_strip->setObjectName("simHeatStrip");

    auto *stripPage = new QWidget(page);
    auto *stripLayout = new QVBoxLayout(stripPage);
    stripLayout->setContentsMargins(0, 0, 0, 0);
    auto *stripRow = new QHBoxLayout;
    m_stripMetric = new QComboBox(stripPage);
    m_stripMetric->setObjectName("simStripMetric");
    m_stripMetric->addItem(tr("Requests in flight (waiting + running)"));
    m_stripMetric->addItem(tr("KV pool held by requests"));
    m_stripMetric->setToolTip(tr("What the heat strip shades, per replica over time, for the router chosen on the left"));
    stripRow->addWidget(new QLabel(tr("Shade:"), stripPage));
    stripRow->addWidget(m_stripMetric);
    stripRow->addStretch();
    stripLayout->addLayout(stripRow);
    stripLayout->addWidget(m_strip, 1);

    m_tabs = new QTabWidget(page);
    m_tabs->setObjectName("simTabs");
    m_tabs->addTab(m_hitChart, tr("Hit rate vs cache"));
    m_tabs->addTab(m_ttftChart, tr("TTFT vs replicas"));
    m_tabs->addTab(m_attainmentChart, tr("SLO attainment vs replicas"));
    m_tabs->addTab(stripPage, tr("Load over time"));
    connect(m_stripMetric, &QComboBox::currentIndexChanged, this, &ServingSimChartTabs::stripMetricChanged);
}

QList<ChartPanel *> ServingSimChartTabs::chartPanels() const
{
    return {m_hitChart, m_ttftChart, m_attainmentChart};
}

std::optional<ChartFigure> ServingSimChartTabs::currentFigure() const
{
    switch (m_tabs->currentIndex()) {
    case 1:
        return m_ttftChart->figure();
    case 2:
        return m_attainmentChart->figure();
    case 3:
        return m_strip->figure();
    default:
        return m_hitChart->figure();
    }
}

void ServingSimChartTabs::show(const std::optional<ServingSimPage::Results> &results, int shownRouter)
{
    auto *strip = m_strip;
    if (!results) {
        const QString why = tr("Run the simulation to see this chart.");
        m_hitChart->setFigure(emptyFigure(tr("Prefix hit rate vs cache size per replica"), why));
        m_ttftChart->setFigure(emptyFigure(tr("TTFT P95 vs replicas"), why));
        m_attainmentChart->setFigure(emptyFigure(tr("SLO attainment vs replicas"), why));
        HeatStrip empty;
        empty.title = tr("Requests in flight per replica over time");
        strip->setFigure({empty.title, QString(), {}, [empty](QPainter &p, const QRectF &r, const FigureInk &ink) { paintHeatStrip(p, r, empty, ink); }});
        return;
    }
    const Results &r = *results;
    const engine::ServingSimConfig &c = r.config;
    // Every chart of the run carries its source for the report.
    const auto sourced = [&r](ChartFigure figure) {
        figure.source = r.source;
        return figure;
    };

    SimLineChart hit;
    hit.title = tr("Prefix hit rate vs cache size per replica");
    hit.xTitle = tr("KV pool per replica (blocks of %1 tokens, log scale)").arg(c.blockSize);
    hit.yTitle = tr("Prompt tokens from cache (%)");
    hit.logX = true;
    hit.markerX = double(c.kvBlocksPerReplica);
    hit.markerLabel = tr("as set");
    for (int i = 0; i < kRouters; ++i) {
        SimLine line{ServingSimPage::routerName(ServingSimPage::routerAt(i)), {}, false};
        for (const CachePoint &p : r.cacheSweep)
            line.points.emplace_back(double(p.kvBlocks), p.hitRateTokens[i] * 100);
        hit.lines.push_back(line);
    }
    if (!r.cacheSweep.empty()) {
        hit.lines.push_back({tr("infinite cache (bound) %1").arg(sharePercent(r.infiniteHitRateTokens)),
                             {QPointF(double(r.cacheSweep.front().kvBlocks), r.infiniteHitRateTokens * 100),
                              QPointF(double(r.cacheSweep.back().kvBlocks), r.infiniteHitRateTokens * 100)},
                             true});
    }
    const QString caption = tr("%1, %2; %3 of %4 at %5 × the arrival rate.")
                                .arg(r.setup, formatCountOf(c.replicas, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                                .arg(formatCountOf(r.runs[0].requests, QT_TRANSLATE_NOOP("headroom::ui", "%n request(s)")), r.traceName, formatDecimal(c.timeScale, 4));
    m_hitChart->setFigure(sourced({hit.title, caption, [hit](QChart::ChartTheme theme) { return buildSimLineChart(hit, theme); }}));

    SimLineChart ttft;
    ttft.title = tr("TTFT P95 vs replicas");
    ttft.xTitle = tr("Replicas");
    ttft.yTitle = tr("TTFT P95 (ms, log scale)");
    ttft.logY = true;
    ttft.markerX = double(c.replicas);
    ttft.markerLabel = tr("as set");
    SimLineChart att;
    att.title = tr("SLO attainment vs replicas");
    att.xTitle = tr("Replicas");
    att.yTitle = tr("Within both SLOs (%)");
    att.yMax = 100;
    att.markerX = double(c.replicas);
    att.markerLabel = tr("as set");
    double lowest = 100;
    for (int i = 0; i < kRouters; ++i) {
        SimLine t{ServingSimPage::routerName(ServingSimPage::routerAt(i)), {}, false};
        SimLine a{ServingSimPage::routerName(ServingSimPage::routerAt(i)), {}, false};
        for (const ReplicaPoint &p : r.replicaSweep) {
            t.points.emplace_back(p.replicas, p.ttftP95Ms[i]);
            if (p.attainment[i]) {
                a.points.emplace_back(p.replicas, *p.attainment[i] * 100);
                lowest = std::min(lowest, *p.attainment[i] * 100);
            }
        }
        ttft.lines.push_back(t);
        att.lines.push_back(a);
    }
    if (!r.replicaSweep.empty()) {
        ttft.lines.push_back({tr("TTFT SLO %1 ms").arg(msText(*c.ttftSloMs)),
                              {QPointF(r.replicaSweep.front().replicas, *c.ttftSloMs),
                               QPointF(r.replicaSweep.back().replicas, *c.ttftSloMs)},
                              true});
        att.lines.push_back({tr("target %1").arg(sharePercent(r.target)),
                             {QPointF(r.replicaSweep.front().replicas, r.target * 100),
                              QPointF(r.replicaSweep.back().replicas, r.target * 100)},
                             true});
    }
    att.yMin = std::max(0.0, std::floor(std::min(lowest, r.target * 100) / 10) * 10 - 10);
    const QString sentence = caption.endsWith(QLatin1Char('.')) ? caption.chopped(1) : caption;
    const QString sloCaption = tr("%1; SLOs: TTFT %2 ms, ITL %3 ms.").arg(sentence, msText(*c.ttftSloMs), msText(*c.itlSloMs));
    m_ttftChart->setFigure(sourced({ttft.title, sloCaption, [ttft](QChart::ChartTheme theme) { return buildSimLineChart(ttft, theme); }}));
    m_attainmentChart->setFigure(sourced({att.title, sloCaption, [att](QChart::ChartTheme theme) { return buildSimLineChart(att, theme); }}));

    const int shown = shownRouter;
    const engine::ServingSimResult &run = r.runs[shown];
    HeatStrip heat;
    heat.timesS = run.sampleTimesS;
    const bool kvUse = m_stripMetric->currentIndex() == 1;
    heat.percent = kvUse;
    heat.title = (kvUse ? tr("KV pool held per replica over time, %1 router") : tr("Requests in flight per replica over time, %1 router"))
                     .arg(ServingSimPage::routerName(ServingSimPage::routerAt(shown)));
    heat.valueLabel = kvUse ? tr("share of the pool held") : tr("requests in flight");
    heat.maxValue = 1.0;
    for (size_t rep = 0; rep < run.inFlight.size(); ++rep) {
        std::vector<double> row;
        if (kvUse) {
            row = run.kvUsed[rep];
        } else {
            for (int v : run.inFlight[rep]) {
                row.push_back(v);
                heat.maxValue = std::max(heat.maxValue, double(v));
            }
        }
        heat.rows.push_back(std::move(row));
    }
    const QString stripCaption = tr("%1, %2; the stronger the blue, the busier, and a row stronger than the others is a hot spot.")
                                     .arg(formatCountOf(c.replicas, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")), r.setup);
    strip->setFigure(sourced({heat.title, stripCaption, {}, [heat](QPainter &p, const QRectF &rect, const FigureInk &ink) {
        paintHeatStrip(p, rect, heat, ink);
    }}));
}

} // namespace headroom::ui
