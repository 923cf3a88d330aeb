#include "servingsimsummary.h"

#include "cli/common/format.h"
#include "common/format.h"
#include "servingsimtext.h"

#include <QTableWidget>

namespace headroom::ui {

namespace {

using cli::formatDecimal;
using Results = ServingSimPage::Results;
constexpr int kRouters = ServingSimPage::kRouters;

} // namespace

void ServingSimSummary::fillTable(QTableWidget &table, const std::optional<ServingSimPage::Results> &results,
                                  int shownRouter)
{
    const QStringList headers{tr("Router"),          tr("Hit rate\n(blocks)"),      tr("Hit rate\n(prompt tokens)"),
                              tr("TTFT P50\n(ms)"),  tr("TTFT P95\n(ms)"),          tr("TTFT P99\n(ms)"),
                              tr("ITL P95\n(ms)"),   tr("E2E P95\n(ms)"),           tr("Queue wait\nP95 (ms)"),
                              tr("SLO\nattainment"), tr("Goodput\n(requests/s)"),   tr("Preemp-\ntions"),
                              tr("Busiest /\nmean requests"), tr("Replicas\nfor target")};
    table.clear();
    table.setColumnCount(int(headers.size()));
    table.setHorizontalHeaderLabels(headers);
    if (!results) {
        table.setRowCount(0);
        return;
    }
    const Results &r = *results;
    table.setRowCount(kRouters + 1);
    auto set = [&table](int row, int column, const QString &text) {
        auto *item = new QTableWidgetItem(text);
        item->setTextAlignment(column == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
        table.setItem(row, column, item);
    };
    for (int i = 0; i < kRouters; ++i) {
        const engine::ServingSimResult &s = r.runs[i];
        QString name = ServingSimPage::routerName(ServingSimPage::routerAt(i));
        if (i == shownRouter)
            name += tr(" (shown)");
        set(i, 0, name);
        set(i, 1, sharePercent(s.hitRateBlocks));
        set(i, 2, sharePercent(s.hitRateTokens));
        set(i, 3, msText(s.ttftMs.p50));
        set(i, 4, msText(s.ttftMs.p95));
        set(i, 5, msText(s.ttftMs.p99));
        set(i, 6, msText(s.itlMs.p95));
        set(i, 7, msText(s.e2eMs.p95));
        set(i, 8, msText(s.queueWaitMs.p95));
        set(i, 9, s.sloAttainment ? sharePercent(*s.sloAttainment) : tr("—"));
        set(i, 10, formatDecimal(s.goodputPerS, 3));
        set(i, 11, formatCount(s.preemptions));
        set(i, 12, formatDecimal(s.loadMaxOverMean, 3, true));
        set(i, 13, r.replicasNeeded[i] ? QString::number(*r.replicasNeeded[i])
                                       : tr("over %1").arg(r.maxReplicasSearched));
    }
    set(kRouters, 0, tr("infinite cache (bound)"));
    set(kRouters, 1, sharePercent(r.infiniteHitRateBlocks));
    set(kRouters, 2, sharePercent(r.infiniteHitRateTokens));
    for (int column = 3; column < int(headers.size()); ++column)
        set(kRouters, column, tr("—"));
}

QString ServingSimSummary::explanation(const std::optional<ServingSimPage::Results> &results)
{
    if (!results) {
        return tr("Choose a trace and a fleet, then Run: every router is replayed on the trace with a "
                                  "finite prefix cache per replica. The trace's infinite-cache hit rate is only an upper "
                                  "bound; a real fleet keeps less, because each replica's cache is finite and requests "
                                  "sharing a prefix land on different replicas unless the router keeps them together.");
    }
    const Results &r = *results;
    const auto &rr = r.runs[ServingSimPage::routerIndex(engine::RouterKind::RoundRobin)];
    const auto &ll = r.runs[ServingSimPage::routerIndex(engine::RouterKind::LeastLoaded)];
    const auto &kv = r.runs[ServingSimPage::routerIndex(engine::RouterKind::KvAware)];
    QString text = tr("With %1 of %2 (%3 blocks of %4 tokens each), the KV-aware router keeps %5 of prompt "
                      "tokens cached against %6 for round-robin and %7 for least-loaded; a cache holding the whole "
                      "trace would keep %8 — the bound no finite fleet reaches.")
                       .arg(formatCountOf(r.config.replicas, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                       .arg(r.setup, formatCount(r.config.kvBlocksPerReplica))
                       .arg(r.config.blockSize)
                       .arg(sharePercent(kv.hitRateTokens), sharePercent(rr.hitRateTokens), sharePercent(ll.hitRateTokens),
                            sharePercent(r.infiniteHitRateTokens));
    text += QLatin1Char(' ');
    text += tr("TTFT P95 is %1 ms with the KV-aware router against %2 ms with round-robin; %3 against %4 of requests "
               "meet both TTFT %5 ms and ITL %6 ms.")
                .arg(msText(kv.ttftMs.p95), msText(rr.ttftMs.p95),
                     kv.sloAttainment ? sharePercent(*kv.sloAttainment) : tr("—"),
                     rr.sloAttainment ? sharePercent(*rr.sloAttainment) : tr("—"), msText(*r.config.ttftSloMs),
                     msText(*r.config.itlSloMs));
    text += QLatin1Char(' ');
    const auto &kvNeed = r.replicasNeeded[ServingSimPage::routerIndex(engine::RouterKind::KvAware)];
    const auto &rrNeed = r.replicasNeeded[ServingSimPage::routerIndex(engine::RouterKind::RoundRobin)];
    auto need = [&r](const std::optional<int> &n) {
        return n ? formatCountOf(*n, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")) : tr("more than %1").arg(formatCountOf(r.maxReplicasSearched, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")));
    };
    if (!kvNeed && !rrNeed) {
        text += tr("No fleet of up to %1 holds %2 of requests within the SLOs with either router: some "
                   "requests miss them however many replicas serve (a prompt too long to prefill within the TTFT SLO "
                   "on one replica, for one); lower the target or relax the SLOs.")
                    .arg(formatCountOf(r.maxReplicasSearched, QT_TRANSLATE_NOOP("headroom::ui", "%n replica(s)")))
                    .arg(sharePercent(r.target));
    } else {
        text += tr("To hold %2 of requests within SLO takes %1 with the KV-aware router, against %3 with round-robin.")
                    .arg(need(kvNeed), sharePercent(r.target), need(rrNeed));
    }
    if (kv.rejected > 0)
        text += QLatin1Char(' ') + tr("%1 need more blocks than a replica's pool and were left out.")
                                       .arg(formatCountOf(kv.rejected, QT_TRANSLATE_NOOP("headroom::ui", "%n request(s)")));
    return text;
}

} // namespace headroom::ui
